// Choosing kinds of notification: a checkbox per kind, named as the inbox names it (notes.js),
// for a webhook's form (webhooks.js) and for the profile's "Push notifications": which kinds the
// player's browsers are pushed (`/api/v1/push/kinds/`; the inbox still gets every kind).

import './notes.js';
import { call } from './api.js';
import { h, render } from './dom.js';
import { refusal, submitting, tr } from './i18n.js';

/** @typedef {import('../types/schema').components['schemas']['NotificationKindEnum']} NotificationKind */
/** @typedef {import('./api.js').Schemas['PushKinds']} PushKinds */

/** Every kind, in the order the inbox and the schema list them. */
export const KINDS = /** @type {NotificationKind[]} */ (Object.keys(NOTIFICATION_TITLES));

/** @type {Record<string, [string, string]>} */
const TEXT = {
  title: ['Push notifications', 'Notificações push'],
  help: ['What your devices with notifications turned on (in the inbox) are told. The inbox gets everything.', 'O que os seus dispositivos com notificações ligadas (na caixa de avisos) recebem. A caixa de avisos recebe tudo.'],
  save: ['Save', 'Guardar'],
  saved: ['Saved.', 'Guardado.'],
};

/**
 * A checkbox per kind (ids `<prefix>-<kind>`), ticked for `chosen`; `ticked()` reads them.
 * @param {string} prefix
 * @param {Iterable<NotificationKind>} chosen
 */
export function kindBoxes(prefix, chosen) {
  const wanted = new Set(chosen);
  const boxes = KINDS.map((kind) => /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: `${prefix}-${kind}`, value: kind, checked: wanted.has(kind) })));
  return {
    boxes,
    rows: boxes.map((box, i) => h('div', { class: 'check' }, box, h('label', { for: box.id }, tr(NOTIFICATION_TITLES[KINDS[i]])))),
    ticked: () => /** @type {NotificationKind[]} */ (boxes.filter((box) => box.checked).map((box) => box.value)),
  };
}

/** @returns {Promise<PushKinds>} */
const readPushKinds = () => call('GET', 'push/kinds/');
/**
 * @param {NotificationKind[]} kinds
 * @returns {Promise<PushKinds>}
 */
const choosePushKinds = (kinds) => call('PUT', 'push/kinds/', { body: { kinds } });

/** The profile's `Push notifications`: the kinds, ticked once the choice is read, and `Save`. */
export function pushKindsSection() {
  const fieldset = h('fieldset', { class: 'kinds' }, h('legend', { class: 'sr-only' }, tr(TEXT.title)));
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const submit = h('button', { type: 'submit', disabled: true }, tr(TEXT.save));
  /** @type {() => NotificationKind[]} */
  let ticked = () => [];
  /** @param {PushKinds} choice */
  const show = (choice) => {
    const picker = kindBoxes('push-kind', choice.kinds);
    ticked = picker.ticked;
    render(fieldset, h('legend', { class: 'sr-only' }, tr(TEXT.title)), ...picker.rows);
    submit.disabled = false;
  };
  const form = h('form', { class: 'stack', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert, status }, async () => {
      show(await choosePushKinds(ticked()));
      status.textContent = tr(TEXT.saved);
    });
  } },
  h('h2', { id: 'push-kinds-title' }, tr(TEXT.title)),
  h('p', { class: 'muted small' }, tr(TEXT.help)),
  fieldset, alert, status, submit);
  readPushKinds().then(show, (error) => { alert.textContent = refusal(error); });
  return h('section', { class: 'push-kinds', 'aria-labelledby': 'push-kinds-title' }, form);
}
