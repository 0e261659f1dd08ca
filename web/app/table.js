// The table: #/game/<id>. This page wires the table's modules: its state (table/state.js: one
// object, changed only by the reducer), the calls to the server (table/actions.js) and the
// drawing (table/render.js). While the game is on, the stream's frames (live.js) go into the
// state as they come; while it waits for players, the view is read every 2 s.

import { session } from './api.js';
import { h, render } from './dom.js';
import { t } from './i18n.js';
import { follow } from './live.js';
import { checkFairness, handlers, read, sync } from './table/actions.js';
import { announcementText, deadlineText, linkText, myTurn, renderTable } from './table/render.js';
import { initialState, reduce, shown } from './table/state.js';

/** @typedef {import('./table/state.js').TableState} TableState */
/** @typedef {import('./table/state.js').Message} Message */

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function tablePage(root, gameId) {
  /** @type {TableState} */
  let state = initialState(gameId, session());
  /** @type {TableState | null} the state the board shows */
  let drawn = null;
  /** @type {{stop: () => void, kick: () => void} | null} */
  let stream = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let waitingPoll;
  let left = false;

  const alert = h('p', { role: 'alert', class: 'error', id: 'table-alert' });
  // What a screen reader should hear when the game moves on: the turn coming to you, the end.
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'board' });
  const table = h('div', { class: 'table', 'data-game-status': 'loading', 'data-version': 0 }, alert, announce, board);
  render(root, table);
  board.append(h('p', { class: 'muted' }, t('loading')));

  const store = {
    state: () => state,
    /** @param {Message} message */
    dispatch: (message) => {
      if (left) return; // a read that lands after the page was left
      state = reduce(state, message);
      paint();
      connect();
    },
  };
  const on = handlers(store);

  /** Draw the state, once it is whole (state.js `shown`), and only what changed. */
  const paint = () => {
    if (alert.textContent !== state.error) alert.textContent = state.error;
    const view = state.view;
    if (!view || !shown(state) || state === drawn) return;
    const before = drawn;
    drawn = state;
    if (before && before.view === view && before.legalAt === state.legalAt && before.picking === state.picking
      && before.resigning === state.resigning && before.fair === state.fair) {
      if (before.link !== state.link) {
        const el = board.querySelector('.link-state');
        if (el) el.textContent = linkText(state.link);
      }
      return;
    }
    if (state.announce && state.announce !== before?.announce) announce.textContent = announcementText(view, state.announce.what);
    table.dataset.gameStatus = view.status;
    table.dataset.version = String(view.version);
    document.title = myTurn(state) ? `▶ ${t('your_turn')} · UNO` : 'UNO';
    const hadFocus = board.contains(document.activeElement);
    render(board, ...renderTable(state, on, Date.now()));
    // Keyboard users keep their place: a new choice takes the focus, and a move that removed
    // the focused card hands it to the next thing to do.
    const target = state.focus ? board.querySelector(state.focus)
      : hadFocus && !board.contains(document.activeElement)
        ? board.querySelector('.prompt button, [data-region=hand] button, .actions button, [data-region=hand]')
        : null;
    if (state.focus) store.dispatch({ type: 'focused' });
    if (target instanceof HTMLElement) target.focus();
    if (view.status === 'finished' && !state.fair) void checkFairness(store);
  };

  /** Live updates while the game is on: the stream; while it waits for players: a poll. */
  const connect = () => {
    const view = state.view;
    if (!view) return;
    if (view.status === 'active' && !stream) {
      stream = follow(gameId, view.version, (seq, event) => {
        store.dispatch({ type: 'frame', seq, event });
        sync(store);
      }, (link) => {
        store.dispatch({ type: 'link', link });
        sync(store);
      });
    } else if (view.status !== 'active' && stream) {
      stream.stop();
      stream = null;
      store.dispatch({ type: 'link', link: 'off' });
    }
    if (view.status === 'waiting' && waitingPoll === undefined) {
      waitingPoll = setInterval(() => void read(store), 2000);
    } else if (view.status !== 'waiting' && waitingPoll !== undefined) {
      clearInterval(waitingPoll);
      waitingPoll = undefined;
    }
  };

  /** The countdown of the turn's deadline (or the running bank), once a second. */
  const tick = () => {
    const el = board.querySelector('.deadline');
    if (el && drawn) el.textContent = deadlineText(drawn, Date.now());
  };
  const ticker = setInterval(tick, 1000);
  board.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && state.picking.choice) {
      store.dispatch({ type: 'pick', picking: { choice: null }, focus: '[data-region=hand] button, [data-region=hand]' });
    }
  });
  const onOnline = () => stream?.kick();
  addEventListener('online', onOnline);
  const onVisible = () => { if (document.visibilityState === 'visible') void read(store); };
  document.addEventListener('visibilitychange', onVisible);

  await read(store);
  return () => {
    left = true;
    document.title = 'UNO';
    stream?.stop();
    stream = null;
    clearInterval(ticker);
    if (waitingPoll !== undefined) clearInterval(waitingPoll);
    removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
