// The replay viewer: #/replay/<id>. Steps through a finished game's events (GET /replay/?at=N),
// every hand shown, with the move feed up to the position.

import { events, getGame, replay } from './api.js';
import { cardEl, h, render } from './dom.js';
import { feedItem, feedRegion, lineOf, seatsOf } from './feed.js';
import { GAME_REFUSALS, cardName, fill, refusal, t, tr } from './i18n.js';
import { chatLine, chatList } from './chat.js';

/** @type {Record<string, [string, string]>} words of this page only (i18n.js: those pages share) */
const WORDS = {
  back: ['Back', 'Recuar'],
  forward: ['Forward', 'Avançar'],
  event_n: ['Event {n} of {max}', 'Evento {n} de {max}'],
};

/** @typedef {import('./api.js').GameView} GameView */
/** @typedef {import('./api.js').GameEvent} GameEvent */

/** Where each replay stood, by game: the page drawn anew (a language switch) or opened again
 * shows the same event, where it went back to the first. */
/** @type {Map<string, number>} */
const positions = new Map();

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function replayPage(root, gameId) {
  const alert = h('p', { role: 'alert', class: 'error' });
  const stage = h('div', { class: 'replay-stage' });
  const range = h('input', { id: 'replay-position', type: 'range', min: 1, max: 1, value: 1, step: 1 });
  const where = h('span', { class: 'muted', 'aria-live': 'polite' });
  const back = h('button', { type: 'button', 'data-key': 'back' }, tr(WORDS.back));
  const forward = h('button', { type: 'button', 'data-key': 'forward' }, tr(WORDS.forward));
  const line = h('p', { class: 'event-line' });
  const feed = feedRegion(false);
  feed.empty.hidden = true; // a game replayed has events
  // The table chat up to the position: the messages sent at or before its version.
  const chatLines = h('ol', { class: 'chat-lines' });
  const noChat = h('p', { class: 'muted small', hidden: true }, tr(['No messages.', 'Sem mensagens.']));
  let chatRead = false;
  const chatSection = h('section', { class: 'chat', 'data-region': 'chat', 'aria-label': tr(['Table chat', 'Conversa da mesa']) },
    h('h2', {}, tr(['Chat', 'Conversa'])), chatLines, noChat);
  /** @type {import('./chat.js').ChatMessage[]} */
  const said = [];
  const viewer = h('div', { class: 'replay', 'data-version': 0, 'data-at': 0 },
    h('h1', {}, t('replay')),
    h('div', { class: 'controls' }, back,
      h('label', { for: 'replay-position' }, t('position')), range, forward, where),
    line, alert, h('div', { class: 'table-body' }, stage, h('div', { class: 'side' }, chatSection, feed.section)));
  render(root, h('p', { class: 'muted' }, t('loading')));

  /** @type {GameView} */
  let game;
  try {
    game = await getGame(gameId);
  } catch (error) {
    // No game to step through (an unknown id, say): why, and the way back; no controls.
    render(root, h('div', { class: 'replay' }, h('h1', {}, t('replay')),
      h('p', { role: 'alert', class: 'error' }, refusal(error, GAME_REFUSALS)), h('p', {}, h('a', { href: '#/' }, t('nav_lobby')))));
    return;
  }
  render(root, viewer);
  const max = game.version;
  range.max = String(max);
  viewer.dataset.version = String(max);
  const seats = seatsOf(game, (seq) => log[seq - 1]);

  /** @type {Map<number, Promise<GameView>>} */
  const cache = new Map();
  /** @param {number} n */
  const fetchAt = (n) => {
    let found = cache.get(n);
    if (!found) {
      found = replay(gameId, n);
      found.catch(() => cache.delete(n));
      cache.set(n, found);
    }
    return found;
  };

  let at = 1;
  let wanted = 0;
  /** @param {number} n */
  const show = async (n) => {
    at = Math.min(max, Math.max(1, n));
    positions.set(gameId, at);
    const ticket = ++wanted;
    range.value = String(at);
    back.disabled = at <= 1;
    forward.disabled = at >= max;
    where.textContent = fill(tr(WORDS.event_n), { n: at, max });
    const event = log.find((e) => e.seq === at);
    render(line, event ? lineOf(event, seats) : '');
    render(feed.list, log.filter((e) => e.seq <= at).slice(-100).reverse().map((e) => feedItem(e, seats)));
    render(chatLines, said.filter((m) => m.version <= at).map(chatLine));
    noChat.hidden = !chatRead || chatLines.childElementCount > 0;
    try {
      const view = await fetchAt(at);
      if (ticket !== wanted) return;
      alert.textContent = '';
      viewer.dataset.at = String(at);
      drawView(view);
      if (at < max) void fetchAt(at + 1).catch(() => {});
    } catch (error) {
      if (ticket === wanted) alert.textContent = refusal(error, GAME_REFUSALS);
    }
  };

  /** @param {GameView} view */
  const drawView = (view) => {
    const round = view.round;
    render(stage,
      round ? h('div', { class: 'centre' },
        h('div', { class: 'pile', 'data-region': 'discard', role: 'group', 'aria-label': t('discard_pile') },
          round.top_card ? cardEl(round.top_card, { label: `${t('discard_pile')}: ${cardName(round.top_card)}` }) : null),
        h('div', { class: 'state' },
          round.color ? h('p', { class: `color-chip c-${round.color}`, 'data-color': round.color }, t('current_color', { color: t(round.color) })) : null,
          // Round 0: the game has begun, the first round is not dealt yet.
          h('p', {}, round.number ? [t('round_n', { n: round.number }), ' · ', t('draw_pile_n', { n: round.draw_pile })]
            : tr(['Before the first deal', 'Antes da primeira distribuição'])))) : null,
      h('ul', { class: 'seats replay-seats', 'data-region': 'seats' }, view.seats.map((s) => {
        // The seat to play, as the table marks it; before the first deal (round 0), none yet.
        const current = !!round?.number && round.current_seat === s.seat && view.status === 'active';
        return h('li', { class: current ? 'seat current' : 'seat', 'aria-current': current && 'true', 'data-seat': s.seat },
          h('div', { class: 'seat-name' }, h('strong', {}, s.player.username), ' ', h('span', { class: 'muted small' }, t('score_n', { n: s.score })),
            // While the game runs a hidden hand is its count; the viewer's own is theirs to see
            // (the replay showed neither: no card and no count).
            s.hand ? null : h('span', { class: 'muted small', 'data-hand-count': s.hand_count }, ' · ', s.hand_count === 1 ? t('card_1') : t('cards_n', { n: s.hand_count }))),
          h('div', { class: 'mini-hand', 'data-region': 'hand' }, (s.hand ?? (view.you?.seat === s.seat ? view.you.hand : [])).map((c) => cardEl(c, { label: cardName(c), small: true }))));
      })));
  };

  void (async () => {
    try {
      for (let after = 0; ;) {
        const page = await chatList(gameId, after);
        if (!page.messages.length) break;
        said.push(...page.messages);
        after = page.messages[page.messages.length - 1].id;
      }
      chatRead = true;
      show(at);
    } catch { /* the chat is a nicety too */ }
  })();

  /** @type {GameEvent[]} */
  const log = [];
  void (async () => {
    try {
      let after = 0;
      while (after < max) {
        const page = await events(gameId, after, { limit: 1000 });
        if (!page.events.length) break;
        log.push(...page.events);
        after = page.events[page.events.length - 1].seq;
      }
      show(at);
    } catch { /* the labels are a nicety; the views are the replay */ }
  })();

  back.addEventListener('click', () => void show(at - 1));
  forward.addEventListener('click', () => void show(at + 1));
  range.addEventListener('input', () => void show(Number(range.value)));
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') void show(at - 1);
    if (e.key === 'ArrowRight') void show(at + 1);
  };
  addEventListener('keydown', onKey);
  await show(positions.get(gameId) ?? 1);
  return () => removeEventListener('keydown', onKey);
}
