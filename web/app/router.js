// The hash router: which page a route shows, going to a route, and back after signing in.
//
// Pages import this module to move on (`go`, `afterSignIn`); the route table is main.js's and
// is handed in by `startRouter`, so this module imports no page and no page imports main.js:
// the app's modules import each other without a cycle.

import { session, signOut } from './api.js';
import { h, render } from './dom.js';
import { t } from './i18n.js';

/**
 * A page: draws itself into `root`; the function it returns (if any) runs when the page is left
 * (closing streams and timers).
 * @typedef {(root: HTMLElement, ...params: string[]) => (void | (() => void)) | Promise<void | (() => void)>} Page
 */
/** @typedef {[RegExp, () => Promise<Page>, boolean]} Route  pattern, page, needs a session */
/**
 * @typedef {{
 *   routes: Route[],
 *   main: HTMLElement,
 *   before?: () => void,
 *   after?: () => void,
 * }} Router  before: runs first on every route (the header); after: once a page is shown
 */

/** @type {Router | null} */
let router = null;
/** @type {(() => void) | void} the page shown now: leaving it */
let leave;
let routing = 0;

/** @param {Router} options */
export function startRouter(options) {
  router = options;
  addEventListener('hashchange', () => void route());
  void route();
}

/** Show the page of the current hash again (a language switch, a repeated `go`). */
export function reroute() {
  void route();
}

/** @param {string} path  a hash route without the `#`, e.g. `/game/…` */
export function go(path) {
  if (location.hash === `#${path}`) void route();
  else location.hash = path;
}

/** The route shown now, without the `#`. */
export function currentPath() {
  return location.hash.replace(/^#/, '') || '/';
}

/** A route that needs a session sends the person to sign in, and back here afterwards. */
export function toLogin() {
  sessionStorage.setItem('uno.after-login', currentPath());
  go('/login');
}

/**
 * A `Sign out` button: end the session the page shows (whoever it showed when pressed: a sign-in
 * made meanwhile is kept), then show the sign-in page, unless someone signed in meanwhile.
 */
export async function signOutHere() {
  const leaving = session()?.username; // before any wait: whom the button signs out
  await signOut(leaving).catch(() => {});
  if (!session()) go('/login');
}

/**
 * After signing in: back where the person was going, or the lobby; never again to a mail's link
 * (spent once used: a reset's, a confirmation's) nor to the pages of signing in.
 */
export function afterSignIn() {
  const next = sessionStorage.getItem('uno.after-login');
  sessionStorage.removeItem('uno.after-login');
  go(next && !/^\/(login|register|forgot)$|^\/(reset|email)\//.test(next) ? next : '/');
}

async function route() {
  if (!router) return;
  const { routes, main, before, after } = router;
  const ticket = ++routing;
  const path = currentPath();
  if (typeof leave === 'function') leave();
  leave = undefined;
  before?.();
  for (const [pattern, load, needsSession] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    if (needsSession && !session()) {
      toLogin();
      return;
    }
    // An absent optional part stays undefined (not "undefined"); a bad encoding is no route.
    const parts = match.slice(1).map((p) => { try { return p && decodeURIComponent(p); } catch { return null; } });
    if (parts.includes(null)) break;
    const page = await load();
    if (ticket !== routing) return;
    const root = h('div', { class: 'page' });
    main.replaceChildren(root);
    try {
      leave = await page(root, .../** @type {string[]} */ (parts));
    } catch (error) {
      render(root, h('p', { role: 'alert', class: 'error' }, String(error instanceof Error ? error.message : error)));
    }
    if (ticket !== routing && typeof leave === 'function') leave();
    after?.();
    return;
  }
  render(main, h('p', { class: 'page' }, t('not_found')));
}
