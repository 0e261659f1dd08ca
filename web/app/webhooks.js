// The profile's "Webhooks": the caller's notifications sent to a program's address as signed
// HTTP POSTs (`/api/v1/webhooks/`). Each webhook is listed with the kinds it is sent, whether it
// was turned off (every delivery failed for 3 days: then `Turn on again`), its latest deliveries
// on asking, and `Delete`; the form adds one, and its signing secret is shown that once.

import './notes.js';
import { call } from './api.js';
import { h, render } from './dom.js';
import { fill, formatDate, refusal, submitting, t, tr } from './i18n.js';
import { redraw } from './inbox.js';
import { KINDS, kindBoxes } from './kinds.js';

/** @typedef {import('./api.js').Schemas['Webhook']} Webhook */
/** @typedef {import('./api.js').Schemas['Delivery']} Delivery */
/** @typedef {import('../types/schema').components['schemas']['NotificationKindEnum']} NotificationKind */

/** @type {Record<string, [string, string]>} */
const TEXT = {
  title: ['Webhooks', 'Webhooks'],
  help: ['Your notifications, sent to a program of yours as signed HTTP POSTs (Standard Webhooks): a bot learns of its turns without asking.', 'Os seus avisos, enviados a um programa seu em pedidos HTTP POST assinados (Standard Webhooks): um bot sabe da sua vez sem perguntar.'],
  none: ['No webhooks yet.', 'Ainda não há webhooks.'],
  every_kind: ['Every kind', 'Todos os tipos'],
  some_kinds: ['{n} of {all} kinds', '{n} de {all} tipos'],
  kinds: ['Sent for', 'Enviados para'],
  add: ['Add webhook', 'Adicionar webhook'],
  added: ['Webhook added. Its signing secret, shown only now:', 'Webhook adicionado. O segredo de assinatura, mostrado só agora:'],
  deleted: ['Webhook deleted.', 'Webhook apagado.'],
  delete: ['Delete', 'Apagar'],
  deliveries: ['Deliveries', 'Entregas'],
  no_deliveries: ['Nothing sent yet.', 'Ainda nada foi enviado.'],
  disabled: ['Turned off {when}: every delivery failed for 3 days. Once its program answers, turn it on again.', 'Desligado a {when}: todas as entregas falharam durante 3 dias. Quando o seu programa responder, ligue-o de novo.'],
  enable: ['Turn on again', 'Ligar de novo'],
  enabled: ['Webhook on again: it is sent the notifications from now on.', 'Webhook ligado de novo: recebe os avisos a partir de agora.'],
  delivery: ['{when} · attempt {n} · {status}', '{when} · tentativa {n} · {status}'],
  answered: ['answered {code}', 'respondeu {code}'],
  no_answer: ['no answer', 'sem resposta'],
  retry: ['again {when}', 'de novo {when}'],
};

/** @type {Record<Delivery['status'], [string, string]>} */
const DELIVERY_STATUS = {
  pending: ['waiting', 'à espera'],
  succeeded: ['delivered', 'entregue'],
  failed: ['failed', 'falhou'],
};

/** @returns {Promise<{results: Webhook[]}>} */
const listWebhooks = () => call('GET', 'webhooks/');
/**
 * @param {string} url
 * @param {NotificationKind[]} kinds
 * @returns {Promise<import('./api.js').Schemas['WebhookCreated']>}
 */
const addWebhook = (url, kinds) => call('POST', 'webhooks/', { body: { url, kinds } });
/** @param {number} id */
const deleteWebhook = (id) => call('DELETE', `webhooks/${id}/`);
/**
 * @param {number} id
 * @returns {Promise<Webhook>}
 */
const enableWebhook = (id) => call('POST', `webhooks/${id}/enable/`);
/**
 * @param {number} id
 * @returns {Promise<import('./api.js').Schemas['DeliveryPage']>}
 */
const listDeliveries = (id) => call('GET', `webhooks/${id}/deliveries/`, { query: { page_size: 10 } });

/** @param {Delivery} row */
function deliveryLine(row) {
  const answer = row.response_code === null ? tr(TEXT.no_answer) : fill(tr(TEXT.answered), { code: row.response_code });
  const status = row.status === 'pending' ? tr(DELIVERY_STATUS.pending) : `${tr(DELIVERY_STATUS[row.status])}, ${answer}`;
  const retry = row.next_retry_at ? ` · ${fill(tr(TEXT.retry), { when: formatDate(row.next_retry_at) })}` : '';
  return h('li', { 'data-status': row.status },
    fill(tr(TEXT.delivery), { when: formatDate(row.at), n: row.attempt, status }) + retry);
}

/** The section: the list (filled once it comes), then the form that adds one. */
export function webhooksSection() {
  const list = h('ul', { class: 'webhooks plain' });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('div', { role: 'status', class: 'small' });

  /** @param {Webhook} hook */
  const item = (hook) => {
    const shown = h('ul', { class: 'deliveries plain muted small' });
    const kinds = hook.kinds.length === KINDS.length ? tr(TEXT.every_kind) : hook.kinds.map((kind) => tr(NOTIFICATION_TITLES[kind])).join(', ');
    // Drawn again, the list keeps the keyboard (redraw): deleted, on the next webhook's Delete;
    // turned on again, on its Deliveries.
    const remove = h('button', { type: 'button', 'data-key': `delete-${hook.id}`, onclick: () => submitting({ button: remove, alert, status }, async () => {
      await deleteWebhook(hook.id);
      render(status, tr(TEXT.deleted));
      await load(remove);
    }) }, tr(TEXT.delete));
    const enable = h('button', { type: 'button', 'data-key': `enable-${hook.id}`, onclick: () => submitting({ button: enable, alert, status }, async () => {
      await enableWebhook(hook.id);
      render(status, tr(TEXT.enabled));
      await load(enable);
    }) }, tr(TEXT.enable));
    const deliveries = h('button', { type: 'button', 'data-key': `deliveries-${hook.id}`, 'aria-expanded': 'false', onclick: async () => {
      if (deliveries.getAttribute('aria-expanded') === 'true') {
        deliveries.setAttribute('aria-expanded', 'false');
        render(shown);
        return;
      }
      alert.textContent = '';
      try {
        const page = await listDeliveries(hook.id);
        deliveries.setAttribute('aria-expanded', 'true');
        render(shown, ...(page.results.length ? page.results.map(deliveryLine) : [h('li', {}, tr(TEXT.no_deliveries))]));
      } catch (error) {
        alert.textContent = refusal(error);
      }
    } }, tr(TEXT.deliveries));
    return h('li', { 'data-webhook': hook.id },
      h('code', { class: 'url' }, hook.url),
      h('span', { class: 'muted small' }, `${tr(TEXT.kinds)}: ${kinds}`),
      hook.disabled_at ? h('span', { class: 'error small' }, fill(tr(TEXT.disabled), { when: formatDate(hook.disabled_at) })) : null,
      h('span', { class: 'actions' }, hook.disabled_at ? enable : null, deliveries, remove),
      shown);
  };

  const title = h('h2', { id: 'webhooks-title', tabindex: -1 }, tr(TEXT.title));
  /** @param {Element | null} [pressed] */
  const load = async (pressed = document.activeElement) => {
    try {
      const { results } = await listWebhooks();
      redraw(list, title, results.length ? results.map(item) : [h('li', { class: 'muted small' }, tr(TEXT.none))], pressed);
    } catch (error) {
      alert.textContent = refusal(error);
    }
  };

  const url = h('input', { id: 'webhook-url', name: 'url', type: 'url', inputmode: 'url', placeholder: 'https://', required: true });
  const picker = kindBoxes('webhook-kind', KINDS);
  const summary = h('summary', {});
  const count = () => {
    const ticked = picker.ticked().length;
    summary.textContent = `${t('kinds')}: ${ticked === KINDS.length ? tr(TEXT.every_kind) : fill(tr(TEXT.some_kinds), { n: ticked, all: KINDS.length })}`;
  };
  count();
  const submit = h('button', { type: 'submit' }, tr(TEXT.add));
  const form = h('form', { class: 'stack webhook-add', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert, status }, async () => {
      const made = await addWebhook(/** @type {HTMLInputElement} */ (url).value.trim(), picker.ticked());
      form.reset();
      count();
      render(status, tr(TEXT.added), ' ', h('code', { class: 'secret' }, made.secret));
      await load();
    });
  } },
  h('label', { for: 'webhook-url' }, t('url')), url,
  // Folded: most programs want every kind, and eleven boxes would make the profile twice as long.
  h('details', { class: 'kinds' }, summary,
    h('fieldset', { onchange: count }, h('legend', { class: 'sr-only' }, t('kinds')),
      ...picker.rows)),
  submit);

  void load();
  return h('section', { class: 'webhooks-section', 'aria-labelledby': 'webhooks-title' },
    title,
    h('p', { class: 'muted small' }, tr(TEXT.help)),
    list, form, alert, status);
}
