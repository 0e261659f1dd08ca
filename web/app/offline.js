// Offline: the service worker keeps the shell (web/sw.js); when the page cannot reach the API
// (the browser is offline, or a call failed on the network) it says so in `#offline`
// (role="status") instead of leaving a broken page, and shows the page again once it is back.

import { t } from './i18n.js';

/** How often, while the browser says it is online but the API did not answer, to try again. */
const PROBE_MS = 5000;

let down = !navigator.onLine;
/** @type {ReturnType<typeof setInterval> | undefined} */
let probe;
/** @type {() => void} */
let onBack = () => {};

function banner() {
  return document.getElementById('offline');
}

/** Draw the message (or clear it): on every route too, so it follows the language. */
export function drawOffline() {
  const element = banner();
  if (!element) return;
  const text = down ? t('offline') : '';
  if (element.textContent !== text) element.textContent = text;
  document.documentElement.toggleAttribute('data-offline', down);
}

/** @param {boolean} now */
function set(now) {
  if (now === down) return;
  down = now;
  drawOffline();
  if (!down) {
    clearInterval(probe);
    probe = undefined;
    onBack();
  }
}

async function tryAgain() {
  if (!navigator.onLine) return;
  try {
    const answer = await fetch('/healthz', { cache: 'no-store' });
    if (answer.ok) set(false);
  } catch {
    // still unreachable
  }
}

/**
 * Follow the connection; `back` runs when it returns (the app shows the current page again).
 * @param {() => void} back
 */
export function watchConnection(back) {
  onBack = back;
  addEventListener('offline', () => set(true));
  addEventListener('online', () => set(false));
  addEventListener('uno:unreachable', () => {
    set(true);
    if (probe === undefined) probe = setInterval(() => void tryAgain(), PROBE_MS);
  });
  drawOffline();
}

/** Whether the page is offline now (pages may say less than a failed call's detail). */
export function isOffline() {
  return down;
}
