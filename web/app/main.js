// The app: the header, and the hash routes with the page each shows (the router is router.js,
// which pages import to move on; this module is imported by none).

import { HEADER_DRAWN, clearSession, isGuest, session, setUnauthorizedHandler } from './api.js';
import { h, render } from './dom.js';
import { currentLang, setLang, t } from './i18n.js';
import { drawOffline, watchConnection } from './offline.js';
import { currentPath, reroute, signOutHere, startRouter, toLogin } from './router.js';

/** @type {Promise<void> | null} */
let pagesCss = null;
/**
 * A page other than the table's: its module and the pages' stylesheet (pages.css), which the
 * table does without. The route waits for both: no page draws unstyled.
 * @param {() => Promise<import('./router.js').Page>} load
 * @returns {() => Promise<import('./router.js').Page>}
 */
const styled = (load) => async () => {
  pagesCss ??= new Promise((done) => {
    document.head.append(h('link', { rel: 'stylesheet', href: '/app/pages.css', onload: () => done(), onerror: () => done() }));
  });
  const [page] = await Promise.all([load(), pagesCss]);
  return page;
};

/** @type {import('./router.js').Route[]} route, page, needs a session */
const ROUTES = [
  [/^\/?$/, styled(async () => (await import('./lobby.js')).lobbyPage), true],
  [/^\/login$/, styled(async () => (await import('./auth.js')).loginPage), false],
  [/^\/register$/, styled(async () => (await import('./auth.js')).registerPage), false],
  // The account mails' links, and asking for a reset's: no session needed (email.js).
  [/^\/forgot$/, styled(async () => (await import('./email.js')).forgotPage), false],
  [/^\/reset\/([^/]+)$/, styled(async () => (await import('./email.js')).resetPage), false],
  [/^\/email\/([^/]+)$/, styled(async () => (await import('./email.js')).emailConfirmPage), false],
  [/^\/game\/([^/]+)$/, async () => (await import('./table.js')).tablePage, true],
  [/^\/join\/([^/]+)$/, styled(async () => (await import('./lobby.js')).joinPage), true],
  [/^\/replay\/([^/]+)$/, styled(async () => (await import('./replay.js')).replayPage), true],
  [/^\/inbox$/, styled(async () => (await import('./inbox.js')).inboxPage), true],
  [/^\/tournaments$/, styled(async () => (await import('./tournaments.js')).tournamentsPage), true],
  [/^\/tournaments\/([^/]+)$/, styled(async () => (await import('./tournaments.js')).tournamentPage), true],
  [/^\/leaderboard$/, styled(async () => (await import('./players.js')).leaderboardPage), true],
  [/^\/players\/([^/?]+)(?:\?game=([^&]+)&seq=(\d+))?$/, styled(async () => (await import('./players.js')).profilePage), true],
];

// Colour-blind mode: every colour also as a shape and a letter (style.css, `html.cb`). On by
// default when the browser asks for more contrast; the toggle is remembered.
const COLORBLIND = 'uno.colorblind';
const colorblind = () => {
  const saved = localStorage.getItem(COLORBLIND);
  return saved === null ? matchMedia('(prefers-contrast: more)').matches : saved === '1';
};
document.documentElement.classList.toggle('cb', colorblind());

const header = /** @type {HTMLElement} */ (document.getElementById('header'));
const main = /** @type {HTMLElement} */ (document.getElementById('main'));

function drawHeader() {
  const me = session();
  const here = currentPath();
  /**
   * @param {string} path
   * @param {string} label
   */
  const link = (path, label) =>
    h('a', { href: `#${path}`, 'aria-current': here === path ? 'page' : false }, label);
  /** @param {string} name */
  const profile = (name) => `/players/${encodeURIComponent(name)}`;
  render(
    header,
    h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, 'UNO'),
      h('span', { class: 'sr-only' }, t('nav_lobby'))),
    h('nav', { 'aria-label': t('nav_main') },
      me ? [
        link('/', t('nav_lobby')),
        h('a', { href: '#/inbox', 'aria-current': here === '/inbox' ? 'page' : false, id: 'nav-inbox' },
          t('nav_inbox'), h('span', { class: 'badge', id: 'unread', hidden: true })),
        link('/tournaments', t('nav_tournaments')),
        link('/leaderboard', t('nav_leaderboard')),
        // A guest's name carries the mark; their profile is where they keep the account.
        isGuest()
          ? h('a', { href: `#${profile(me.username)}`, 'aria-current': here === profile(me.username) ? 'page' : false, 'data-guest': 'true' },
            me.username, ' ', h('span', { class: 'tag guest' }, t('guest')))
          : link(profile(me.username), me.username),
      ] : [link('/login', t('sign_in')), link('/register', t('register'))]),
    h('div', { class: 'tools' },
      h('button', { type: 'button', class: 'link', 'aria-pressed': String(colorblind()), onclick: () => {
        localStorage.setItem(COLORBLIND, colorblind() ? '0' : '1');
        document.documentElement.classList.toggle('cb', colorblind());
        drawHeader();
      } }, t('colorblind')),
      h('button', { type: 'button', class: 'link', lang: currentLang() === 'en' ? 'pt' : 'en', onclick: () => {
        setLang(currentLang() === 'en' ? 'pt' : 'en');
        reroute();
      } }, t('switch_lang')),
      me && h('button', { type: 'button', class: 'link', onclick: signOutHere }, t('sign_out'))),
  );
  document.querySelector('.skip-link')?.replaceChildren(t('skip_to_content'));
  dispatchEvent(new Event(HEADER_DRAWN));
}

// A session ended (401): a page that needs one sends the person to sign in; one that needs none
// (signing in, a mail's link: its answer must stay on screen) stays, under a signed-out header.
setUnauthorizedHandler(() => {
  clearSession(); // the inbox hears it (SESSION_ENDED) and closes its stream
  const path = currentPath();
  if (ROUTES.some(([pattern, , needsSession]) => needsSession && pattern.test(path))) toLogin();
  else drawHeader();
});

// entry: guest, play now, offline. The service worker keeps the shell for offline use (and
// shows Web Push); back online, the page is shown again (the table reconnects by itself).
if ('serviceWorker' in navigator && window.isSecureContext) {
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
}
/** The person changed a field of the page (drawn again, it would be lost). */
const edited = () => [.../** @type {NodeListOf<HTMLInputElement>} */ (main.querySelectorAll('input, textarea'))]
  .some((f) => (/^(checkbox|radio)$/.test(f.type) ? f.checked !== f.defaultChecked : f.value !== f.defaultValue));
watchConnection(() => {
  // Not the table (it reconnects), nor a page being filled in (a guest's name to keep was lost).
  if (!currentPath().startsWith('/game/') && !edited()) reroute();
});

startRouter({
  routes: ROUTES,
  main,
  before: () => {
    drawHeader();
    drawOffline();
  },
  after: () => {
    if (session()) void import('./inbox.js').then((inbox) => inbox.startNotifications());
  },
});
