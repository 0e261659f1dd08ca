// A finished game's extras on its table: the export (one JSON document, saved as a file) and the
// deck commitment checked in the browser. Loaded by table/actions.js once a game is over: a
// game in play never needs them.

import { call } from '../api.js';
import { h } from '../dom.js';
import { GAME_REFUSALS, refusal } from '../i18n.js';

/** @typedef {import('./actions.js').Store} Store */

/**
 * The finished game as one JSON document (the export), saved as a file.
 * @param {Store} store
 */
export async function download(store) {
  const gameId = store.state().gameId;
  try {
    const doc = await call('GET', `games/${encodeURIComponent(gameId)}/export/`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
    const link = h('a', { href: url, download: `uno-${gameId}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    store.dispatch({ type: 'error', error: refusal(error, GAME_REFUSALS) });
  }
}

/**
 * The deck commitment checked in the browser, once the finished view reveals the seed and salt:
 * sha256("seed:salt") must be what the game showed from its first event on.
 * @param {Store} store
 */
export async function checkFairness(store) {
  const { view, fair, gameId } = store.state();
  if (fair || !view || view.status !== 'finished' || view.seed === undefined || !view.salt || !view.deck_commitment) return;
  const { seed, salt, deck_commitment: commitment } = view;
  store.dispatch({ type: 'fair', verified: null, seed: null });
  // A seed is 64 bits: past 2^53 a JavaScript number rounds it. Its digits come from the JSON
  // text itself (JSON.parse's source access), or there is no check.
  /** @type {string | null} */
  let exact = Number.isSafeInteger(seed) ? String(seed) : null;
  if (exact === null) {
    await call('GET', `games/${encodeURIComponent(gameId)}/`, {
      reviver(key, value, context) {
        if (key === 'seed' && context?.source && this && typeof this === 'object' && 'deck_commitment' in this) exact = context.source;
        return value;
      },
    }).catch(() => {});
  }
  if (!exact || !crypto.subtle) return;
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${exact}:${salt}`));
  const hex = Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join('');
  store.dispatch({ type: 'fair', verified: hex === commitment, seed: exact });
}
