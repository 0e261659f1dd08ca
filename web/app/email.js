// The account's e-mail address and what the service mails to it: the profile's "E-mail address"
// (an address added is confirmed by the link mailed to it; removed with the password), the
// pages those links open, which need no session (#/email/<token> confirms the address at once,
// #/reset/<token> chooses a new password), and #/forgot, which asks for a reset's link from
// the sign-in page. Every call of a link's page goes without this browser's session (api.js
// `anonymous`): a link works whoever is signed in here, or nobody.

import { call, resetPassword, session } from './api.js';
import { h, render } from './dom.js';
import { currentLang, fill, refusal, submitting, t, tr } from './i18n.js';
import { go } from './router.js';

/** @typedef {import('./api.js').Schemas['EmailState']} EmailState */
/** @typedef {import('./api.js').Schemas['EmailConfirmed']} EmailConfirmed */

/** @type {Record<string, [string, string]>} */
const TEXT = {
  // the profile's section
  title: ['E-mail address', 'Endereço de e-mail'],
  confirmed: ['Your confirmed address:', 'O seu endereço confirmado:'],
  confirmed_help: ['A forgotten password is reset through it. Only you see it.', 'Uma palavra-passe esquecida é reposta através dele. Só o próprio o vê.'],
  none: ['No address yet: add one to be able to reset a forgotten password.', 'Ainda sem endereço: junte um para poder repor uma palavra-passe esquecida.'],
  new_address: ['New address', 'Novo endereço'],
  send: ['Send a confirmation link', 'Enviar uma ligação de confirmação'],
  sent: ['We sent a link to {email}. Open it to confirm the address.', 'Enviámos uma ligação para {email}. Abra-a para confirmar o endereço.'],
  remove_title: ['Remove the address', 'Remover o endereço'],
  remove_help: ['A forgotten password can then no longer be reset.', 'Deixa então de ser possível repor uma palavra-passe esquecida.'],
  remove: ['Remove', 'Remover'],
  removed: ['The address is removed.', 'O endereço foi removido.'],
  // #/forgot
  forgot_title: ['Forgot your password?', 'Esqueceu-se da palavra-passe?'],
  forgot_help: ['Give the e-mail address confirmed on your account: we send it a link to choose a new password.', 'Indique o endereço de e-mail confirmado na sua conta: enviamos-lhe uma ligação para escolher uma nova palavra-passe.'],
  forgot_send: ['Send the link', 'Enviar a ligação'],
  forgot_sent: ['If an account has this confirmed address, we sent it a link to choose a new password. It works for 24 hours.', 'Se uma conta tiver este endereço confirmado, enviámos-lhe uma ligação para escolher uma nova palavra-passe. Funciona durante 24 horas.'],
  remembered: ['Remembered it?', 'Lembrou-se?'],
  // #/reset/<token>
  reset_title: ['Choose a new password', 'Escolha uma nova palavra-passe'],
  reset_help: ['Every device signed in to the account is signed out when the password changes: sign in again with the new one.', 'Todos os dispositivos com sessão iniciada na conta saem quando a palavra-passe muda: entre de novo com a nova.'],
  reset_save: ['Save the password', 'Guardar a palavra-passe'],
  reset_other: ['The password of {name} is changed: every session of that account is signed out.', 'A palavra-passe de {name} foi mudada: todas as sessões dessa conta terminaram.'],
  ask_again: ['Ask for a new link', 'Pedir uma nova ligação'],
  // #/email/<token>
  email_done: ['Your address {email} is confirmed.', 'O seu endereço {email} está confirmado.'],
  email_done_help: ['A forgotten password of {name} can be reset through it from now on.', 'Uma palavra-passe esquecida de {name} pode a partir de agora ser reposta através dele.'],
  to_profile: ['Your profile', 'O seu perfil'],
};

/** @type {Record<string, [string, string]>} the profile's section's own words for a refusal */
const EMAIL_REFUSED = {
  invalid_credentials: ['The password is wrong.', 'A palavra-passe está errada.'],
  guest_account: ['A guest account has no address: keep the account first.', 'Uma conta de convidado não tem endereço: guarde a conta primeiro.'],
};
/** @type {Record<string, [string, string]>} */
const RESET_REFUSED = {
  link_invalid: ['This link is malformed, expired (it works for 24 hours) or already used.', 'Esta ligação está mal formada, expirou (funciona durante 24 horas) ou já foi usada.'],
};
/** @type {Record<string, [string, string]>} */
const CONFIRM_REFUSED = {
  link_invalid: ['This confirmation link is malformed, expired (it works for 3 days) or already used: ask for a new one from your profile.', 'Esta ligação de confirmação está mal formada, expirou (funciona durante 3 dias) ou já foi usada: peça uma nova no seu perfil.'],
};

/** The language the mails are written in: the page's. */
const language = () => currentLang();

/**
 * @param {string} email  '' removes the address
 * @param {string} password
 * @returns {Promise<EmailState>}
 */
const changeEmail = (email, password) => call('POST', 'players/me/email/', { body: { email, password, language: language() } });

/** @param {string} email */
const askReset = (email) => call('POST', 'auth/password-reset/', { body: { email, language: language() }, anonymous: true });

/**
 * A confirmation link's answer, asked once per token: the page drawn again (a language switch)
 * shows the same answer instead of spending the link twice, and so does a reload of the tab.
 * @type {Map<string, Promise<EmailConfirmed>>}
 */
const confirming = new Map();
const CONFIRMED = 'uno.email-confirmed.';

/**
 * @param {string} token
 * @returns {Promise<EmailConfirmed>}
 */
function confirmEmail(token) {
  const kept = sessionStorage.getItem(CONFIRMED + token);
  if (kept) {
    try {
      return Promise.resolve(JSON.parse(kept));
    } catch { /* not ours: ask again */ }
  }
  let asked = confirming.get(token);
  if (!asked) {
    asked = /** @type {Promise<EmailConfirmed>} */ (call('POST', 'auth/email/confirm/', { body: { token }, anonymous: true }));
    asked.then((done) => sessionStorage.setItem(CONFIRMED + token, JSON.stringify(done)), () => confirming.delete(token));
    confirming.set(token, asked);
  }
  return asked;
}

// --- the profile's section ----------------------------------------------------------------------

/**
 * The profile's `E-mail address` (an account with a password): the confirmed address or none;
 * a new one with the password, confirmed by the link mailed to it; and `Remove the address`.
 * @param {string} confirmed  the address now ('' when none)
 */
export function emailSection(confirmed) {
  const shown = h('div', { class: 'email-now' });
  const removed = h('p', { role: 'status', class: 'muted small email-removed' });
  const address = h('input', { id: 'email-new', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: 254 });
  const password = h('input', { id: 'email-password', name: 'current-password', type: 'password', autocomplete: 'current-password', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const submit = h('button', { type: 'submit' }, tr(TEXT.send));
  const form = h('form', { class: 'stack email-change', onsubmit: (event) => {
    event.preventDefault();
    removed.textContent = '';
    void submitting({ button: submit, alert, status }, async () => {
      const { pending } = await changeEmail(address.value.trim(), password.value);
      form.reset();
      status.textContent = fill(tr(TEXT.sent), { email: pending ?? '' });
    }, EMAIL_REFUSED);
  } },
  h('label', { for: 'email-new' }, tr(TEXT.new_address)), address,
  h('label', { for: 'email-password' }, t('current_password')), password,
  alert, status, submit);

  const removeSecret = h('input', { id: 'email-remove-password', name: 'current-password', type: 'password', autocomplete: 'current-password', required: true });
  const removeAlert = h('p', { role: 'alert', class: 'error' });
  const removeButton = h('button', { type: 'submit', class: 'danger' }, tr(TEXT.remove));
  const removal = h('details', { class: 'email-remove' },
    h('summary', {}, tr(TEXT.remove_title)),
    h('form', { class: 'stack', onsubmit: (event) => {
      event.preventDefault();
      status.textContent = '';
      void submitting({ button: removeButton, alert: removeAlert, status: removed }, async () => {
        await changeEmail('', removeSecret.value);
        show('');
        removed.textContent = tr(TEXT.removed);
      }, EMAIL_REFUSED);
    } },
    h('p', { class: 'muted small' }, tr(TEXT.remove_help)),
    h('label', { for: 'email-remove-password' }, t('current_password')), removeSecret,
    removeAlert, removeButton));

  /** @param {string} email */
  const show = (email) => {
    render(shown, email
      ? [h('p', {}, tr(TEXT.confirmed), ' ', h('strong', { 'data-email': email }, email)),
        h('p', { class: 'muted small' }, tr(TEXT.confirmed_help))]
      : h('p', { class: 'muted small' }, tr(TEXT.none)));
    removal.hidden = !email;
    removal.open = false;
    removeSecret.value = '';
  };
  show(confirmed);
  return h('section', { class: 'email-section', 'aria-labelledby': 'email-title' },
    h('h2', { id: 'email-title' }, tr(TEXT.title)),
    shown, removed, form, removal);
}

// --- the pages: #/forgot, #/reset/<token>, #/email/<token> ---------------------------------------

/**
 * `Forgot your password?`: an address; the answer is the same whether or not an account has it.
 * @param {HTMLElement} root
 */
export function forgotPage(root) {
  const address = h('input', { id: 'forgot-email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: 254 });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'kept' });
  const submit = h('button', { type: 'submit', class: 'primary' }, tr(TEXT.forgot_send));
  const form = h('form', { class: 'auth card-panel', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert, status }, async () => {
      await askReset(address.value.trim());
      status.textContent = tr(TEXT.forgot_sent);
    });
  } },
  h('h1', {}, tr(TEXT.forgot_title)),
  h('p', { class: 'muted' }, tr(TEXT.forgot_help)),
  h('label', { for: 'forgot-email' }, t('email')), address,
  alert, submit, status,
  h('p', { class: 'muted' }, tr(TEXT.remembered), ' ', h('a', { href: '#/login' }, t('sign_in'))));
  render(root, form);
  address.focus();
}

/**
 * `Choose a new password` from a reset's link: done, the sign-in page with the account's name
 * filled (the reset ended every session of the account, this browser's too); signed in here as
 * another account, that one goes on and the page says it is done.
 * @param {HTMLElement} root
 * @param {string} token
 */
export function resetPage(root, token) {
  const password = h('input', { id: 'reset-password', name: 'new-password', type: 'password', autocomplete: 'new-password', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'kept' });
  const again = h('p', { hidden: true }, h('a', { href: '#/forgot' }, tr(TEXT.ask_again)));
  const submit = h('button', { type: 'submit', class: 'primary' }, tr(TEXT.reset_save));
  const form = h('form', { class: 'auth card-panel', onsubmit: (event) => {
    event.preventDefault();
    again.hidden = true;
    void submitting({ button: submit, alert, status }, async () => {
      try {
        const { username, signedOut } = await resetPassword(token, password.value);
        if (signedOut) {
          go('/login'); // the sign-in page says it is done, the name filled
          return;
        }
        form.reset();
        status.textContent = fill(tr(TEXT.reset_other), { name: username });
      } catch (error) {
        again.hidden = !(error && /** @type {{code?: string}} */ (error).code === 'link_invalid');
        throw error;
      }
    }, RESET_REFUSED);
  } },
  h('h1', {}, tr(TEXT.reset_title)),
  h('p', { class: 'muted' }, tr(TEXT.reset_help)),
  h('label', { for: 'reset-password' }, t('new_password')), password,
  alert, again, submit, status);
  render(root, form);
  password.focus();
}

/**
 * A confirmation's link: the address confirmed at once (the page asks once per link), then said;
 * a refused link is said in the reader's words.
 * @param {HTMLElement} root
 * @param {string} token
 */
export async function emailConfirmPage(root, token) {
  const panel = h('section', { class: 'auth card-panel email-confirm', 'aria-labelledby': 'email-confirm-title' });
  const title = h('h1', { id: 'email-confirm-title' }, t('email'));
  render(root, panel);
  render(panel, title, h('p', { class: 'muted', role: 'status' }, t('loading')));
  try {
    const { email, username } = await confirmEmail(token);
    const me = session();
    render(panel, title,
      h('p', { role: 'status', class: 'kept' }, fill(tr(TEXT.email_done), { email })),
      h('p', { class: 'muted' }, fill(tr(TEXT.email_done_help), { name: username })),
      me?.username === username ? h('p', {}, h('a', { href: `#/players/${encodeURIComponent(username)}` }, tr(TEXT.to_profile)))
        : me ? null : h('p', {}, h('a', { href: '#/login' }, t('sign_in'))));
  } catch (error) {
    render(panel, title, h('p', { role: 'alert', class: 'error' }, refusal(error, CONFIRM_REFUSED)));
  }
}
