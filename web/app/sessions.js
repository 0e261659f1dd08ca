// The profile's "Sessions": where the caller is signed in (one session per sign-in: a device, a
// browser), each with `End session`; the current one has `Sign out` instead.

import { call } from './api.js';
import { h, render } from './dom.js';
import { formatDate, refusal, t, tr } from './i18n.js';
import { signOutHere } from './router.js';

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

/** @param {string} when */
const shown = (when) => formatDate(when);

/** The section: filled once the list comes; an error shows in its `role="alert"`. */
export function sessionsSection() {
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
      : h('button', { type: 'button', onclick: async () => {
        alert.textContent = '';
        status.textContent = '';
        button.disabled = true;
        try {
          await endSession(row.id);
          status.textContent = tr(TEXT.ended);
          await load();
        } catch (error) {
          alert.textContent = refusal(error);
          button.disabled = false;
        }
      } }, tr(TEXT.end));
    return h('li', { 'data-session': row.id, 'data-current': String(row.current) },
      h('strong', { title: row.user_agent || null }, deviceName(row.user_agent || '')),
      row.current ? h('span', { class: 'tag' }, tr(TEXT.here)) : null,
      h('span', { class: 'muted small' }, ' ', row.address, ' ',
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
  return section;
}
