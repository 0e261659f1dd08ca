// The app: the header, the hash routes, and the page each route shows.

import { clearSession, session, setUnauthorizedHandler, signOut } from './api.js';
import { h, render } from './dom.js';
import { currentLang, setLang, t } from './i18n.js';

/**
 * A page: draws itself into `root`; the function it returns (if any) runs when the page is left
 * (closing streams and timers).
 * @typedef {(root: HTMLElement, ...params: string[]) => (void | (() => void)) | Promise<void | (() => void)>} Page
 */

/** @type {[RegExp, () => Promise<Page>, boolean][]} route, page, needs a session */
const ROUTES = [
  [/^\/?$/, async () => (await import('./lobby.js')).lobbyPage, true],
  [/^\/login$/, async () => (await import('./auth.js')).loginPage, false],
  [/^\/register$/, async () => (await import('./auth.js')).registerPage, false],
  [/^\/game\/([^/]+)$/, async () => (await import('./table.js')).tablePage, true],
  [/^\/join\/([^/]+)$/, async () => (await import('./lobby.js')).joinPage, true],
  [/^\/replay\/([^/]+)$/, async () => (await import('./replay.js')).replayPage, true],
  [/^\/inbox$/, async () => (await import('./inbox.js')).inboxPage, true],
  [/^\/leaderboard$/, async () => (await import('./players.js')).leaderboardPage, true],
  [/^\/players\/([^/]+)$/, async () => (await import('./players.js')).profilePage, true],
];

const header = /** @type {HTMLElement} */ (document.getElementById('header'));
const main = /** @type {HTMLElement} */ (document.getElementById('main'));

/** @type {(() => void) | void} */
let leave;
let routing = 0;

/** @param {string} path  a hash route without the `#`, e.g. `/game/…` */
export function go(path) {
  if (location.hash === `#${path}`) void route();
  else location.hash = path;
}

function drawHeader() {
  const me = session();
  const here = location.hash.replace(/^#/, '') || '/';
  /**
   * @param {string} path
   * @param {string} label
   */
  const link = (path, label) =>
    h('a', { href: `#${path}`, 'aria-current': here === path ? 'page' : false }, label);
  render(
    header,
    h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, 'UNO'),
      h('span', { class: 'sr-only' }, t('nav_lobby'))),
    h('nav', { 'aria-label': 'Main' },
      me ? [
        link('/', t('nav_lobby')),
        h('a', { href: '#/inbox', 'aria-current': here === '/inbox' ? 'page' : false, id: 'nav-inbox' },
          t('nav_inbox'), h('span', { class: 'badge', id: 'unread', hidden: true })),
        link('/leaderboard', t('nav_leaderboard')),
        link(`/players/${encodeURIComponent(me.username)}`, me.username),
      ] : [link('/login', t('sign_in')), link('/register', t('register'))]),
    h('div', { class: 'tools' },
      h('button', { type: 'button', class: 'link', lang: currentLang() === 'en' ? 'pt' : 'en', onclick: () => {
        setLang(currentLang() === 'en' ? 'pt' : 'en');
        void route();
      } }, t('switch_lang')),
      me && h('button', { type: 'button', class: 'link', onclick: async () => {
        (await import('./inbox.js')).stopNotifications();
        await signOut().catch(() => {});
        go('/login');
      } }, t('sign_out'))),
  );
}

async function route() {
  const ticket = ++routing;
  const path = location.hash.replace(/^#/, '') || '/';
  if (typeof leave === 'function') leave();
  leave = undefined;
  drawHeader();
  for (const [pattern, load, needsSession] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    if (needsSession && !session()) {
      sessionStorage.setItem('uno.after-login', path);
      go('/login');
      return;
    }
    const page = await load();
    if (ticket !== routing) return;
    const root = h('div', { class: 'page' });
    main.replaceChildren(root);
    try {
      leave = await page(root, ...match.slice(1).map(decodeURIComponent));
    } catch (error) {
      render(root, h('p', { role: 'alert', class: 'error' }, String(error instanceof Error ? error.message : error)));
    }
    if (ticket !== routing && typeof leave === 'function') leave();
    if (session()) void import('./inbox.js').then((inbox) => inbox.startNotifications());
    return;
  }
  render(main, h('p', { class: 'page' }, t('not_found')));
}

/** After signing in: back where the person was going, or the lobby. */
export function afterSignIn() {
  const next = sessionStorage.getItem('uno.after-login');
  sessionStorage.removeItem('uno.after-login');
  go(next && next !== '/login' && next !== '/register' ? next : '/');
}

setUnauthorizedHandler(() => {
  clearSession();
  void import('./inbox.js').then((inbox) => inbox.stopNotifications());
  if (!location.hash.startsWith('#/login') && !location.hash.startsWith('#/register')) {
    sessionStorage.setItem('uno.after-login', location.hash.replace(/^#/, '') || '/');
    go('/login');
  }
});

addEventListener('hashchange', () => void route());
void route();
