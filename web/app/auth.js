// Sign in and register, or play as a guest (an account with a generated name, kept later).

import { ACCOUNT_DELETED, PASSWORD_RESET, isGuest, playAsGuest, register, session, signIn } from './api.js';
import { h, render } from './dom.js';
import { currentLang, fill, refusal, t, tr } from './i18n.js';
import { afterSignIn, currentPath } from './router.js';

/** @type {Record<string, [string, string]>} words of this page only (i18n.js: those pages share) */
const WORDS = {
  play_guest_help: ['No account needed: you get a name now and can keep the account later.', 'Sem conta: recebe já um nome e pode guardar a conta mais tarde.'],
  or: ['or', 'ou'],
  no_account: ['No account yet?', 'Ainda sem conta?'],
  play_guest: ['Play as guest', 'Jogar como convidado'],
  have_account: ['Already registered?', 'Já tem conta?'],
  account_deleted: ['Your account is deleted.', 'A sua conta foi eliminada.'],
  password_reset: ['The password of {name} is changed: sign in with the new one.', 'A palavra-passe de {name} foi mudada: entre com a nova.'],
  forgot: ['Forgot your password?', 'Esqueceu-se da palavra-passe?'],
  email_optional: ['E-mail address (optional)', 'Endereço de e-mail (opcional)'],
  email_help: ['To reset your password if you forget it: we mail it a link to confirm.', 'Para repor a palavra-passe se a esquecer: enviamos-lhe uma ligação para o confirmar.'],
  signed_in_as: ['You are signed in as {name}.', 'Tem sessão iniciada como {name}.'],
  to_lobby: ['Go to the lobby', 'Ir para o salão'],
  guest_keep: ['A guest account has no password: keep it on your profile before you use another account, or its games are lost.', 'Uma conta de convidado não tem palavra-passe: guarde-a no seu perfil antes de usar outra conta, ou perde os seus jogos.'],
};

/**
 * Above the sign-in and registration forms of someone signed in already (back on them with the
 * browser's Back): who they are and the way back to the lobby, and to a guest that their account
 * has no password to come back with. The form stays, for another account; Play as guest does not
 * (a click made a new guest, and the old one was lost for good).
 * @param {{username: string}} me
 */
function signedInNote(me) {
  return h('section', { class: 'auth card-panel signed-in', 'data-signed-in': me.username },
    h('p', { role: 'status' }, fill(tr(WORDS.signed_in_as), { name: me.username }), ' ',
      h('a', { href: '#/', 'data-key': 'to-lobby' }, tr(WORDS.to_lobby))),
    isGuest() ? h('p', { class: 'muted small' }, tr(WORDS.guest_keep)) : null);
}

/**
 * The account was deleted (ACCOUNT_DELETED, taken from `sessionStorage` at once, so a reload says
 * it no more): said on the sign-in page the deletion led to, again each time that page is drawn
 * again (a language switch: in the new words), until the person leaves it.
 */
let accountDeleted = false;

/**
 * @param {HTMLElement} root
 * @param {'login' | 'register'} mode
 * @returns {() => void} run on leaving the page
 */
function authForm(root, mode) {
  const me = session();
  const alert = h('p', { role: 'alert', class: 'error' });
  if (sessionStorage.getItem(ACCOUNT_DELETED)) accountDeleted = true;
  sessionStorage.removeItem(ACCOUNT_DELETED);
  const deleted = accountDeleted ? h('p', { role: 'status', class: 'kept' }, tr(WORDS.account_deleted)) : null;
  // Said on the sign-in page a reset's link led to (email.js), the account's name filled, until
  // someone signs in (the page drawn again in the other language says it again).
  const reset = mode === 'login' ? sessionStorage.getItem(PASSWORD_RESET) : null;
  const username = h('input', { id: 'username', name: 'username', autocomplete: 'username', required: true, maxlength: 150, value: reset });
  const password = h('input', {
    id: 'password', name: 'password', type: 'password', required: true,
    autocomplete: mode === 'login' ? 'current-password' : 'new-password',
  });
  // Registering, an address may be given (a link confirms it: the reset of a forgotten password).
  const email = mode === 'register'
    ? h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', maxlength: 254, 'aria-describedby': 'email-help' })
    : null;
  const submit = h('button', { type: 'submit', class: 'primary' }, mode === 'login' ? t('sign_in') : t('register'));
  const form = h('form', { class: 'auth card-panel', onsubmit: async (event) => {
    event.preventDefault();
    alert.textContent = '';
    submit.disabled = true;
    try {
      // A registration answers the new player signed in (a session of its own).
      if (mode === 'register') await register(username.value, password.value, email?.value.trim() ?? '', currentLang());
      else await signIn(username.value, password.value);
      sessionStorage.removeItem(PASSWORD_RESET);
      afterSignIn();
    } catch (error) {
      alert.textContent = refusal(error); // in the page's words (i18n.js)
      submit.disabled = false;
    }
  } },
  h('h1', {}, mode === 'login' ? t('sign_in') : t('register')),
  deleted,
  reset ? h('p', { role: 'status', class: 'kept' }, fill(tr(WORDS.password_reset), { name: reset })) : null,
  h('label', { for: 'username' }, t('username')), username,
  h('label', { for: 'password' }, t('password')), password,
  email ? [h('label', { for: 'email' }, tr(WORDS.email_optional)), email, h('p', { id: 'email-help', class: 'muted small' }, tr(WORDS.email_help))] : null,
  mode === 'login' ? h('p', { class: 'small forgot' }, h('a', { href: '#/forgot' }, tr(WORDS.forgot))) : null,
  alert,
  submit,
  h('p', { class: 'muted' }, mode === 'login'
    ? [tr(WORDS.no_account), ' ', h('a', { href: '#/register' }, t('register'))]
    : [tr(WORDS.have_account), ' ', h('a', { href: '#/login' }, t('sign_in'))]));
  render(root, me ? signedInNote(me) : null, form, me ? null : guestPlay());
  (reset ? password : username).focus();
  // Drawn again on its own route (a language switch), the note stays; left for another, it is said.
  return () => {
    if (currentPath() !== `/${mode}`) accountDeleted = false;
  };
}

/** Play as guest: an account now, no name or password asked; kept later from the profile. */
function guestPlay() {
  const alert = h('p', { role: 'alert', class: 'error' });
  const button = h('button', { type: 'button', class: 'big', 'aria-describedby': 'guest-help', onclick: async () => {
    alert.textContent = '';
    button.disabled = true;
    try {
      await playAsGuest();
      sessionStorage.removeItem(PASSWORD_RESET);
      afterSignIn();
    } catch (error) {
      alert.textContent = refusal(error); // in the page's words (i18n.js)
      button.disabled = false;
    }
  } }, tr(WORDS.play_guest));
  return h('section', { class: 'auth guest-play' },
    h('p', { class: 'or', 'aria-hidden': 'true' }, tr(WORDS.or)),
    button,
    h('p', { id: 'guest-help', class: 'muted small' }, tr(WORDS.play_guest_help)),
    alert);
}

/** @param {HTMLElement} root */
export function loginPage(root) {
  return authForm(root, 'login');
}

/** @param {HTMLElement} root */
export function registerPage(root) {
  return authForm(root, 'register');
}
