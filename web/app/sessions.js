// The profile's "Sessions": where the caller is signed in (one session per sign-in: a device, a
// browser), each with `End session`; the current one has `Sign out` instead.

import { ApiError, endSession, listSessions, signOut } from './api.js';
import { h, render } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';

/** @typedef {import('./api.js').DeviceSession} DeviceSession */

/** @param {string} when */
const shown = (when) => new Date(when).toLocaleString();

/** The section: filled once the list comes; an error shows in its `role="alert"`. */
export function sessionsSection() {
  const list = h('ul', { class: 'sessions plain' });
  const alert = h('p', { role: 'alert', class: 'error' });
  const status = h('p', { role: 'status', class: 'muted small' });
  const section = h('section', { class: 'sessions stack', 'aria-labelledby': 'sessions-title' },
    h('h2', { id: 'sessions-title' }, t('sessions')),
    h('p', { class: 'muted small' }, t('sessions_help')),
    list, alert, status);

  /** @param {DeviceSession} row */
  const item = (row) => {
    const button = row.current
      // The header's `Sign out` stays the page's only button of that exact name (a hook).
      ? h('button', { type: 'button', 'aria-label': t('sign_out_here'), onclick: async () => {
        (await import('./inbox.js')).stopNotifications();
        await signOut().catch(() => {});
        go('/login');
      } }, t('sign_out'))
      : h('button', { type: 'button', onclick: async () => {
        alert.textContent = '';
        status.textContent = '';
        button.disabled = true;
        try {
          await endSession(row.id);
          status.textContent = t('session_ended');
          await load();
        } catch (error) {
          alert.textContent = error instanceof ApiError ? error.detail : String(error);
          button.disabled = false;
        }
      } }, t('end_session'));
    return h('li', { 'data-session': row.id, 'data-current': String(row.current) },
      h('strong', {}, row.user_agent || t('unknown_device')),
      row.current ? h('span', { class: 'tag' }, t('this_session')) : null,
      h('span', { class: 'muted small' }, ' ', row.address, ' ',
        t('session_times', { created: shown(row.created), used: shown(row.last_used) })),
      ' ', button);
  };

  const load = async () => {
    try {
      const rows = await listSessions();
      render(list, ...rows.map(item));
    } catch (error) {
      alert.textContent = error instanceof ApiError ? error.detail : String(error);
    }
  };
  void load();
  return section;
}
