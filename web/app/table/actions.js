// What the table asks of the server: reading the view, sending an action, the game calls (join,
// start, leave, resign, rematch, add bot), the export and the fair-deck check (those two in
// table/end.js, loaded once a game is over). Each result goes into the state through the
// store's `dispatch` (state.js's reducer); nothing here keeps state.

import { ApiError, act, addBot, gameCall, getGame } from '../api.js';
import { GAME_REFUSALS, refusal } from '../i18n.js';
import { go } from '../router.js';
import { mustRead, playsOf, withUno } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').Message} Message */
/** @typedef {import('./state.js').Choice} Choice */
/** @typedef {import('./render.js').Handlers} Handlers */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').Action} Action */
/** @typedef {import('../api.js').Schemas['PlayAction']} PlayAction */
/** @typedef {import('../api.js').Schemas['CardEnum']} Card */
/** @typedef {{state: () => TableState, dispatch: (message: Message) => void}} Store */

/** @param {unknown} error */
const errorText = (error) => refusal(error, GAME_REFUSALS); // a code's words (i18n.js), else its detail

/**
 * Read the view now (a refresh asked by the page: the first read, the waiting poll, the tab
 * shown again). A read already on its way is not doubled: when it lands, `sync` reads again
 * if the state still needs it.
 * @param {Store} store
 */
export async function read(store) {
  const state = store.state();
  if (state.reading) return;
  store.dispatch({ type: 'read' });
  try {
    store.dispatch({ type: 'read-done', view: await getGame(state.gameId) });
  } catch (error) {
    store.dispatch({ type: 'read-failed', error: errorText(error) });
  }
  sync(store);
}

/**
 * Read the view if the state says it must (state.js: a gap, a reconnect, the seat's actions...).
 * @param {Store} store
 */
export function sync(store) {
  if (mustRead(store.state())) void read(store);
}

/**
 * Send one action, as of the version the person saw; the answer is the new view. A refusal
 * shows its detail, and a conflict reads the view again.
 * @param {Store} store
 * @param {Action} action
 * @param {number} version
 */
export async function send(store, action, version) {
  const state = store.state();
  if (!state.view || state.busy) return;
  store.dispatch({ type: 'busy', busy: true });
  try {
    store.dispatch({ type: 'view', view: await act(state.gameId, action, version) });
  } catch (error) {
    store.dispatch({ type: 'error', error: errorText(error) });
    if (error instanceof ApiError && (error.status === 409 || error.status === 422)) void read(store);
  } finally {
    store.dispatch({ type: 'busy', busy: false });
  }
  sync(store);
}

/**
 * A game call: join, start, leave, resign, rematch, add bot. A rematch answers another game:
 * its table is opened.
 * @param {Store} store
 * @param {() => Promise<GameView>} request
 * @returns {Promise<boolean>} whether it was done
 */
async function gameRequest(store, request) {
  store.dispatch({ type: 'error', error: '' });
  try {
    const next = await request();
    if (next.id !== store.state().gameId) go(`/game/${next.id}`);
    else store.dispatch({ type: 'view', view: next });
    sync(store);
    return true;
  } catch (error) {
    store.dispatch({ type: 'error', error: errorText(error) });
    return false;
  }
}

/**
 * Go on with a card's choice: send it when one action is left, else ask for what varies.
 * @param {Store} store
 * @param {Choice} next
 */
function advance(store, next) {
  const state = store.state();
  const view = state.view;
  if (!view) return;
  const options = withUno(next.options, state.picking.unoArmed);
  const colors = new Set(options.map((a) => a.color).filter(Boolean));
  const targets = new Set(options.map((a) => a.target));
  /** @type {Choice} */
  let choice;
  if (colors.size > 1) {
    choice = { ...next, step: 'color' };
  } else if (targets.size > 1) {
    choice = { ...next, step: 'target' };
  } else if (view.settings.rules.two_gives && next.card.split('-')[1] === '2' && next.step !== 'give' && (view.you?.hand.length ?? 0) > 1) {
    choice = { ...next, step: 'give', give: [] };
  } else {
    store.dispatch({ type: 'pick', picking: { choice: null } });
    void send(store, options[0], view.version);
    return;
  }
  store.dispatch({ type: 'pick', picking: { choice }, focus: '.prompt button' });
}

/**
 * @param {Store} store
 * @param {Card} card
 */
function playCard(store, card) {
  const options = playsOf(store.state(), card);
  if (options.length) advance(store, { card, options, step: 'color', give: [] });
}

/** @param {Store} store */
function playSelected(store) {
  const state = store.state();
  const view = state.view;
  if (!view) return;
  const { selected, unoArmed } = state.picking;
  const hand = view.you?.hand ?? [];
  const cards = selected.map((i) => hand[i]);
  if (cards.length === 1) {
    store.dispatch({ type: 'pick', picking: { selecting: false, selected: [] } });
    playCard(store, cards[0]);
    return;
  }
  // The first card's complete plays carry what the set needs (a 7's target, a colour), so
  // the same choices are asked for; the set goes as `cards`.
  const uno = unoArmed && hand.length - cards.length === 1 ? { uno: true } : {};
  /** @type {Map<string, PlayAction>} */
  const variants = new Map();
  for (const entry of playsOf(state, cards[0])) {
    if (entry.uno) continue;
    const { card: _card, ...rest } = entry;
    variants.set(`${entry.color}/${entry.target}`, { ...rest, cards, ...uno });
  }
  const options = [...variants.values()];
  if (!options.length) {
    void send(store, { action: 'play', cards, ...uno }, view.version);
    return;
  }
  store.dispatch({ type: 'pick', picking: { selecting: false, selected: [] } });
  advance(store, { card: cards[0], options, step: 'color', give: [] });
}

/**
 * The finished game's extras, the export and the fair-deck check (table/end.js): loaded when a
 * game is over, never with the board of a game in play.
 */
const end = () => import('./end.js');

/**
 * The deck commitment checked in the browser, once the finished view reveals the seed and salt
 * (table/end.js).
 * @param {Store} store
 */
export async function checkFairness(store) {
  const extras = await end().catch(() => null); // not loaded (offline): again at the next paint
  if (extras) await extras.checkFairness(store);
}

/**
 * What the board's controls do (render.js `Handlers`).
 * @param {Store} store
 * @returns {Handlers}
 */
export function handlers(store) {
  const gameId = () => store.state().gameId;
  return {
    send: (action, version) => void send(store, action, version),
    pick: (picking, focus) => store.dispatch({ type: 'pick', picking, focus }),
    playCard: (card) => playCard(store, card),
    advance: (choice) => advance(store, choice),
    playSelected: () => playSelected(store),
    resigning: (on, focus) => store.dispatch({ type: 'resigning', on, focus }),
    call: (what) => void gameRequest(store, () => gameCall(gameId(), what)),
    leave: async () => {
      if (await gameRequest(store, () => gameCall(gameId(), 'leave'))) go('/');
    },
    addBot: (level) => void gameRequest(store, () => addBot(gameId(), level)),
    download: () => void end().then((extras) => extras.download(store), (error) => store.dispatch({ type: 'error', error: errorText(error) })),
  };
}

