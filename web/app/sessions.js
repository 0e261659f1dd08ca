// The profile's "Sessions": where the caller is signed in (one session per sign-in: a device, a
// browser), each with `End session`; the current one has `Sign out` instead. Below it, for an
// account with a password, "Change password" (every other session ends with the change) and
// "E-mail address" (email.js: where a forgotten password's reset is sent); "Push
// notifications" (kinds.js: not for a bot account, which has no browser); "Webhooks"
// (webhooks.js); "Bot account" (its program plays it from then on); "Your data" (the account's
// whole file, to download); and "Delete account".

import { call, deleteAccount } from './api.js';
import { h, render } from './dom.js';
import { fill, formatDate, refusal, submitting, t, tr } from './i18n.js';
import { go, signOutHere } from './router.js';
import { emailSection } from './email.js';
import { pushKindsSection } from './kinds.js';
import { webhooksSection } from './webhooks.js';

/** @typedef {import('./api.js').Schemas['Session']} DeviceSession */

// Used here only (i18n.js: `tr` for texts of one place), kept off the pages that never show them.
/** @type {Record<string, [string, string]>} */
const TEXT = {
  sessions: ['Sessions', 'Sessões'],
  help: ['Where you are signed in. End a session you do not recognise: it is signed out there.', 'Onde tem sessão iniciada. Termine uma sessão que não reconheça: essa sessão sai.'],
  end: ['End session', 'Terminar sessão'],
  sign_out_here: ['Sign out of this device', 'Sair deste dispositivo'],
  here: ['This device', 'Este dispositivo'],
  unknown: ['Unknown device', 'Dispositivo desconhecido'],
  times: ['Signed in {created} · last used {used}', 'Entrou a {created} · última utilização {used}'],
  ended: ['Session ended.', 'Sessão terminada.'],
  on: ['{browser} on {system}', '{browser} no {system}'],
  password_title: ['Change password', 'Mudar a palavra-passe'],
  password_help: ['Your other sessions are signed out when the password changes.', 'As outras sessões terminam quando a palavra-passe muda.'],
  password_changed_0: ['Password changed.', 'Palavra-passe mudada.'],
  password_changed_1: ['Password changed: your other session is signed out.', 'Palavra-passe mudada: a outra sessão terminou.'],
  password_changed_n: ['Password changed: your {n} other sessions are signed out.', 'Palavra-passe mudada: as outras {n} sessões terminaram.'],
  data_title: ['Your data', 'Os seus dados'],
  data_help: ['Everything the service keeps about your account (profile, sessions, games, messages, notifications) as one JSON file.', 'Tudo o que o serviço guarda sobre a sua conta (perfil, sessões, jogos, mensagens, avisos) num ficheiro JSON.'],
  data_button: ['Download my data', 'Descarregar os meus dados'],
  data_saved: ['Your data is downloaded: {file}.', 'Os seus dados foram descarregados: {file}.'],
  bot_title: ['Bot account', 'Conta bot'],
  bot_help: ['Let a program of yours play this account through the API (the bot API). Only before its first game, and for good: its sign-ins can then only play, and it joins only the games that welcome bots.', 'Deixe um programa seu jogar com esta conta pela API (a API de bots). Só antes do primeiro jogo, e para sempre: as sessões passam a só poder jogar, e só entra em jogos que aceitam bots.'],
  bot_sure: ['I understand that a program plays this account from now on, for good.', 'Compreendo que um programa passa a jogar com esta conta, para sempre.'],
  bot_button: ['Make this a bot account', 'Tornar esta conta uma conta bot'],
  delete_title: ['Delete account', 'Eliminar a conta'],
  delete_help: ['For good: you resign your running games and leave the waiting ones; your sessions, notifications and chat messages are deleted. Your seats in past games stay, under another name.', 'Para sempre: desiste dos jogos a decorrer e sai dos que esperam; as suas sessões, avisos e mensagens são apagados. Os seus lugares em jogos passados ficam, com outro nome.'],
  delete_sure: ['I understand that this cannot be undone.', 'Compreendo que isto não pode ser desfeito.'],
  delete_button: ['Delete my account', 'Eliminar a minha conta'],
};

/** @type {Record<string, [string, string]>} the deletion's own words for a refusal */
const DELETE_REFUSED = {
  invalid_credentials: ['The password is wrong.', 'A palavra-passe está errada.'],
};

/** @type {Record<string, [string, string]>} this form's own words for a refusal (the rest: i18n.js's REFUSALS) */
const PASSWORD_REFUSED = {
  invalid_credentials: ['The current password is wrong.', 'A palavra-passe atual está errada.'],
};

// Read from a user agent, first match wins: Edge and Opera also say Chrome, Chrome also says
// Safari, Android also says Linux.
/** @type {[RegExp, string][]} */
const BROWSERS = [[/\bEdg(e|A|iOS)?\//, 'Edge'], [/\b(OPR|Opera)\//, 'Opera'], [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'], [/(Chrome|CriOS|Chromium)\//, 'Chrome'], [/\bSafari\//, 'Safari']];
/** @type {[RegExp, string][]} */
const SYSTEMS = [[/Windows/, 'Windows'], [/Android/, 'Android'], [/iPhone|iPad|iPod/, 'iOS'], [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']];

/**
 * A short, readable name for a user agent: "Chrome on Linux"; the first word of one that names
 * no browser ("Python-urllib"); `Unknown device` for none.
 * @param {string} agent
 */
export function deviceName(agent) {
  /** @param {[RegExp, string][]} list */
  const found = (list) => list.find(([pattern]) => pattern.test(agent))?.[1];
  const browser = found(BROWSERS);
  const system = found(SYSTEMS);
  if (browser && system) return tr(TEXT.on).replace('{browser}', browser).replace('{system}', system);
  return browser || system || agent.trim().split(/[\s/]/)[0] || tr(TEXT.unknown);
}

/** @returns {Promise<DeviceSession[]>} the caller's open sessions */
const listSessions = () => call('GET', 'players/me/sessions/');
/** @param {string} id */
const endSession = (id) => call('DELETE', `players/me/sessions/${encodeURIComponent(id)}/`);

/** @returns {Promise<import('./api.js').Schemas['OwnProfile']>} the profile, now a bot account's */
const makeBotAccount = () => call('POST', 'players/me/bot-account/');
/** @returns {Promise<import('./api.js').Schemas['AccountExport']>} the account's whole file */
const exportAccount = () => call('GET', 'players/me/export/');
/**
 * @param {string} current
 * @param {string} next
 * @returns {Promise<import('./api.js').Schemas['PasswordChanged']>}
 */
const changePassword = (current, next) => call('POST', 'players/me/password/', { body: { current_password: current, new_password: next } });

/** @param {string} when */
const shown = (when) => formatDate(when);

/**
 * The profile's sections of the caller's account: `Sessions`; `Change password` and `E-mail
 * address` for an account that has one (`password`: not a guest's; `email`: its confirmed
 * address, '' when none); `Push notifications` (not for a bot account, which has no browser:
 * `bot_account`); `Webhooks`; `Bot account` (with a password, not yet one); `Your data`;
 * `Delete account`.
 * @param {{password: boolean, bot_account: boolean, email: string}} options
 */
export function accountSections({ password, bot_account: botAccount, email }) {
  const { section, load } = sessionsSection();
  return [
    section,
    password ? passwordSection(load) : null,
    password ? emailSection(email) : null,
    botAccount ? null : pushKindsSection(),
    webhooksSection(),
    password && !botAccount ? botAccountSection() : null,
    dataSection(),
    deleteSection(password),
  ];
}

/** The list: filled once it comes; an error shows in its `role="alert"`. */
function sessionsSection() {
  const list = h('ul', { class: 'sessions plain' });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const section = h('section', { class: 'sessions stack', 'aria-labelledby': 'sessions-title' },
    h('h2', { id: 'sessions-title' }, tr(TEXT.sessions)),
    h('p', { class: 'muted small' }, tr(TEXT.help)),
    list, alert, status);

  /** @param {DeviceSession} row */
  const item = (row) => {
    const button = row.current
      // The header's `Sign out` stays the page's only button of that exact name (a hook).
      ? h('button', { type: 'button', 'aria-label': tr(TEXT.sign_out_here), onclick: signOutHere }, t('sign_out'))
      : h('button', { type: 'button', onclick: () => submitting({ button, alert, status }, async () => {
        await endSession(row.id);
        status.textContent = tr(TEXT.ended);
        await load();
      }) }, tr(TEXT.end));
    return h('li', { 'data-session': row.id, 'data-current': String(row.current) },
      h('strong', { title: row.user_agent || null }, deviceName(row.user_agent || '')),
      row.current ? h('span', { class: 'tag' }, tr(TEXT.here)) : null,
      h('span', { class: 'muted small' }, ' ', row.address ? `${row.address} · ` : '',
        tr(TEXT.times).replace('{created}', shown(row.created)).replace('{used}', shown(row.last_used))),
      ' ', button);
  };

  const load = async () => {
    try {
      const rows = await listSessions();
      render(list, ...rows.map(item));
    } catch (error) {
      alert.textContent = refusal(error);
    }
  };
  void load();
  return { section, load };
}

/**
 * Change the password: the current one and the new one; the session list (`reload`) then
 * shows this device alone.
 * @param {() => Promise<void>} reload
 */
function passwordSection(reload) {
  const current = h('input', { id: 'password-current', name: 'current-password', type: 'password', autocomplete: 'current-password', required: true });
  const next = h('input', { id: 'password-new', name: 'new-password', type: 'password', autocomplete: 'new-password', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const submit = h('button', { type: 'submit' }, tr(TEXT.password_title));
  const form = h('form', { class: 'stack', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert, status }, async () => {
      const { sessions_ended: ended } = await changePassword(current.value, next.value);
      form.reset();
      status.textContent = fill(tr(ended === 0 ? TEXT.password_changed_0 : ended === 1 ? TEXT.password_changed_1 : TEXT.password_changed_n), { n: ended });
      await reload();
    }, PASSWORD_REFUSED);
  } },
  h('h2', { id: 'password-title' }, tr(TEXT.password_title)),
  h('p', { class: 'muted small' }, tr(TEXT.password_help)),
  h('label', { for: 'password-current' }, t('current_password')), current,
  h('label', { for: 'password-new' }, t('new_password')), next,
  alert, status, submit);
  return h('section', { class: 'password', 'aria-labelledby': 'password-title' }, form);
}

/**
 * `Make this a bot account` (an account with a password: a guest keeps the account first), with
 * a tick that the person understands; done, the profile again, now a bot account's.
 */
function botAccountSection() {
  const sure = h('input', { id: 'bot-sure', type: 'checkbox', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const submit = h('button', { type: 'submit' }, tr(TEXT.bot_button));
  const form = h('form', { class: 'stack', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert }, async () => {
      const profile = await makeBotAccount();
      go(`/players/${encodeURIComponent(profile.username)}`);
    });
  } },
  h('h2', { id: 'bot-title' }, tr(TEXT.bot_title)),
  h('p', { class: 'muted small' }, tr(TEXT.bot_help)),
  h('div', { class: 'check' }, sure, h('label', { for: 'bot-sure' }, tr(TEXT.bot_sure))),
  alert, submit);
  return h('section', { class: 'bot-account-section', 'aria-labelledby': 'bot-title' }, form);
}

/**
 * `Download my data`: the account's whole file (`GET players/me/export/`), saved as the server
 * names it (`uno-<username>.json`).
 */
function dataSection() {
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const button = h('button', { type: 'button', onclick: () => submitting({ button, alert, status }, async () => {
    const data = await exportAccount();
    const file = `uno-${data.profile.username}.json`;
    const link = h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })), download: file });
    link.click();
    URL.revokeObjectURL(link.href);
    status.textContent = fill(tr(TEXT.data_saved), { file });
  }) }, tr(TEXT.data_button));
  return h('section', { class: 'account-data', 'aria-labelledby': 'data-title' },
    h('h2', { id: 'data-title' }, tr(TEXT.data_title)),
    h('p', { class: 'muted small' }, tr(TEXT.data_help)),
    button, alert, status);
}

/**
 * Delete the account: its password (`password`: it has one; a guest's has none) and a tick
 * that the person understands; then the sign-in page, which says the account is deleted.
 * @param {boolean} password
 */
function deleteSection(password) {
  const secret = password ? h('input', { id: 'delete-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true }) : null;
  const sure = h('input', { id: 'delete-sure', type: 'checkbox', required: true });
  const alert = h('p', { role: 'alert', class: 'error' });
  const submit = h('button', { type: 'submit', class: 'danger' }, tr(TEXT.delete_button));
  const form = h('form', { class: 'stack', onsubmit: (event) => {
    event.preventDefault();
    void submitting({ button: submit, alert }, async () => {
      await deleteAccount(secret ? secret.value : '');
      go('/login');
    }, DELETE_REFUSED);
  } },
  h('h2', { id: 'delete-title' }, tr(TEXT.delete_title)),
  h('p', { class: 'muted small' }, tr(TEXT.delete_help)),
  secret ? [h('label', { for: 'delete-password' }, t('password')), secret] : null,
  h('div', { class: 'check' }, sure, h('label', { for: 'delete-sure' }, tr(TEXT.delete_sure))),
  alert, submit);
  return h('section', { class: 'delete-account', 'aria-labelledby': 'delete-title' }, form);
}
