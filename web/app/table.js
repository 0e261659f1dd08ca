// The table: #/game/<id>. This page wires the table's modules: its state (table/state.js: one
// object, changed only by the reducer), the calls to the server (table/actions.js) and the
// drawing (table/render.js). While the game is on, the stream's frames (live.js) go into the
// state as they come; while it waits for players, the view is read every 2 s.

import { events, session } from './api.js';
import { h, render } from './dom.js';
import { t } from './i18n.js';
import { follow } from './live.js';
import { checkFairness, handlers, read, sync } from './table/actions.js';
import { announcementText, botsFillText, deadlineText, linkText, myTurn, renderTable } from './table/render.js';
import { initialState, reduce, shown } from './table/state.js';

/** @typedef {import('./table/state.js').TableState} TableState */
/** @typedef {import('./table/state.js').Message} Message */
/** @typedef {import('./api.js').GameEvent} GameEvent */

/** Events the feed shows of what happened before the page opened. */
const FEED_BACK = 50;
/** Events that are no seat's move: the last move's highlight passes over them. */
const NOT_A_MOVE = new Set(['turn_changed', 'bank_changed', 'pile_reshuffled', 'round_started', 'game_started']);

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
  /** @type {ReturnType<import('./chat.js').chatPanel> | null} */
  let chat = null;
  let left = false;

  const alert = h('p', { role: 'alert', class: 'error', id: 'table-alert' });
  // What a screen reader hears besides the feed's moves: the turn coming to you (the feed's
  // turn lines are not read out).
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite', 'data-region': 'announce' });
  const board = h('div', { class: 'board' });
  const side = h('div', { class: 'side' });
  const table = h('div', { class: 'table', 'data-game-status': 'loading', 'data-version': 0 }, alert, announce,
    h('div', { class: 'table-body' }, board, side));
  render(root, table);
  board.append(h('p', { class: 'muted' }, t('loading')));

  // The feed: the events known (from frames, or read from the log), and the lines shown: every
  // seq from `feedFrom` to `shownTo`. feed.js loads once the board shows: never in its first paint.
  /** @type {(ReturnType<typeof import('./feed.js').feedRegion> & {lines: typeof import('./feed.js')}) | null} */
  let feed = null;
  let feedLoading = false;
  /** @type {Map<number, GameEvent>} */
  const known = new Map();
  let feedFrom = -1;
  let shownTo = 0;
  let feedReading = false;
  /** @type {number | null | undefined} the seat the lines call "you" */
  let feedMe;
  let leftSeat = false;
  /** The stream's frames carry every event after this seq (Infinity: no stream runs). */
  let framesFrom = Infinity;
  /** A frame the page could not read: its event is read from the log. */
  let unreadTo = 0;

  const feedSync = () => {
    const view = drawn?.view;
    if (!view || left) return;
    if (feedFrom < 0) feedFrom = Math.max(0, view.version - FEED_BACK);
    if (feed) feed.empty.hidden = view.version > 0; // no event yet: "No moves yet"
    if (!feed && !feedLoading) {
      feedLoading = true;
      // In a task of its own, after the board this paint drew has shown: the feed's code never
      // races the hand's first cards.
      setTimeout(() => import('./feed.js').then((lines) => {
        if (left) return;
        feed = { ...lines.feedRegion(true), lines };
        side.append(feed.section);
        feedSync();
      }, () => { feedLoading = false; })); // again at the next paint
    }
    const seats = feed?.lines.seatsOf(view, (seq) => known.get(seq));
    // Left to a bot for good: a read of the same version begun before must not give it back.
    if (seats && typeof feedMe === 'number' && seats.me === null) leftSeat = true;
    if (seats && leftSeat) seats.me = null;
    if (feed && seats && feedMe !== undefined && seats.me !== feedMe) {
      // The person left their seat to a bot: the lines again, as a spectator's (not "you").
      feed.list.replaceChildren();
      shownTo = 0;
    }
    let next = Math.max(shownTo, feedFrom) + 1;
    /** @type {GameEvent[]} */
    const ready = [];
    for (let e = known.get(next); e; e = known.get(next)) {
      ready.push(e);
      next += 1;
    }
    if (ready.length && feed && seats) {
      feed.lines.showLines(feed, ready, seats);
      feedMe = seats.me;
      shownTo = next - 1;
      for (const e of ready) {
        if (!NOT_A_MOVE.has(e.type) && e.seat !== null) lastMove = { seat: e.seat, seq: e.seq, played: e.type === 'card_played' };
      }
      markMove();
    }
    const readTo = Math.max(Math.min(view.version, framesFrom), unreadTo);
    if (feedReading || next > readTo) return;
    feedReading = true;
    events(gameId, next - 1, { limit: Math.min(readTo - next + 1, 500) }).then((page) => {
      for (const e of page.events) known.set(e.seq, e);
      feedReading = false;
      feedSync();
    }, () => { feedReading = false; }); // read again at the next paint
  };

  /** The last move, shown on the table: its seat highlighted, a card played sliding onto the pile once. */
  /** @type {{seat: number, seq: number, played: boolean} | null} */
  let lastMove = null;
  let slid = 0;
  const markMove = () => {
    if (!lastMove) return;
    board.querySelector(`[data-region=seats] [data-seat="${lastMove.seat}"]`)?.classList.add('moved');
    if (lastMove.played && lastMove.seq > slid) {
      board.querySelector('[data-region=discard] .card')?.classList.add('arrived');
      slid = lastMove.seq;
    }
  };

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
    if (!view && state.failed && table.dataset.gameStatus === 'loading') {
      // The first read failed (no such game, or no server): the alert says why, and the board
      // offers the way back instead of "Loading…".
      table.dataset.gameStatus = 'failed';
      render(board, h('p', {}, h('a', { href: '#/' }, t('nav_lobby'))));
    }
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
    markMove();
    feedSync();
    // After the move's line, so that a screen reader hears the move, then that it is your turn.
    if (state.announce && state.announce !== before?.announce) announce.textContent = announcementText(state.announce.what);
    if (view.status === 'finished' && !state.fair) void checkFairness(store);
  };

  /** Live updates while the game is on: the stream; while it waits for players: a poll. */
  const connect = () => {
    const view = state.view;
    if (!view) return;
    if (view.status === 'active' && !stream) {
      framesFrom = view.version;
      stream = follow(gameId, view.version, (seq, event) => {
        if (event) known.set(seq, event);
        else unreadTo = Math.max(unreadTo, seq);
        store.dispatch({ type: 'frame', seq, event });
        feedSync(); // a frame the view already holds (an action's answer ran ahead) still has its line
        sync(store);
      }, (link) => {
        store.dispatch({ type: 'link', link });
        chat?.link(link === 'live');
        sync(store);
      }, { after: () => chat?.after() ?? null, onChat: (data) => chat?.frame(data) });
    } else if (view.status !== 'active' && stream) {
      stream.stop();
      stream = null;
      chat?.link(false);
      framesFrom = Infinity;
      feedSync();
      store.dispatch({ type: 'link', link: 'off' });
    }
    if (view.status === 'waiting' && waitingPoll === undefined) {
      waitingPoll = setInterval(() => void read(store), 2000);
    } else if (view.status !== 'waiting' && waitingPoll !== undefined) {
      clearInterval(waitingPoll);
      waitingPoll = undefined;
    }
  };

  /** The countdowns, once a second: the turn's deadline (or the running bank), a quick match's bots. */
  const tick = () => {
    const el = board.querySelector('.deadline');
    if (el && drawn) el.textContent = deadlineText(drawn, Date.now());
    const fill = board.querySelector('.bots-fill');
    if (fill instanceof HTMLElement && fill.dataset.botsFillAt) fill.textContent = botsFillText(fill.dataset.botsFillAt, Date.now());
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
  // The chat: loaded last (HOOKS.md).
  const loadChat = async () => {
    const view = state.view;
    if (left || chat) return;
    if (!view) {
      setTimeout(() => void loadChat().catch(() => {}), 1000);
      return;
    }
    const { chatPanel } = await import('./chat.js');
    if (left || chat) return;
    // A seated player posts (one who left their seat to a bot too: the server takes it as a player's).
    const seated = view.seats.some((s) => s.player.id === session()?.id);
    chat = chatPanel(gameId, seated || !!view.settings.spectator_chat);
    side.prepend(chat.section);
    chat.link(state.link === 'live');
  };
  setTimeout(() => requestIdleCallback(() => void loadChat().catch(() => {}), { timeout: 2000 }), 1000);
  return () => {
    left = true;
    chat?.stop();
    document.title = 'UNO';
    stream?.stop();
    stream = null;
    clearInterval(ticker);
    if (waitingPoll !== undefined) clearInterval(waitingPoll);
    removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
