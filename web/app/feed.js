// The move feed: each event of the seat's own event log in words and card pictures, newest
// first, in a polite live region (a screen reader hears one line a move). The table (table.js)
// and the replay (replay.js) show it. A line shows only the cards its event carries: the event
// as the log serves it to this seat, so it never shows a card the seat may not see.

import { cardEl, h } from './dom.js';
import { cardName, currentLang, duration, t } from './i18n.js';

/** @typedef {import('./api.js').GameEvent} GameEvent */
/** @typedef {import('./api.js').GameView} GameView */
/** @typedef {import('./dom.js').Child} Child */

/** @typedef {{names: Map<number, string>, me: number | null}} Seats  who sits where; me: the viewer's seat */

/**
 * The wording, English and Portuguese. `{who}` is the seat that moved, `{target}` the other seat,
 * `{cards}` the cards (pictures: a line without the placeholder shows them at its end), `{n}` a
 * number, `{color}` a colour's name.
 * @type {Record<string, [string, string]>}
 */
const WORDS = {
  game_started: ['The game began with {n} players', 'O jogo começou com {n} jogadores'],
  round_started: ['Round {n}, dealt by {who}', 'Ronda {n}, dada por {who}'],
  starter_returned: ['{cards} turned first: back into the pile', '{cards} saiu primeiro: volta ao monte'],
  starter_turned: ['First card: {cards}', 'Primeira carta: {cards}'],
  turn: ['{who} to play', 'Vez de {who}'],
  turn_mine: ['Your turn', 'A sua vez'],
  turn_owes: ['{who} to play: {n} cards owed', 'Vez de {who}: {n} cartas em dívida'],
  turn_owes_mine: ['Your turn: {n} cards owed', 'A sua vez: {n} cartas em dívida'],
  card_played: ['{who} played {cards}', '{who} jogou {cards}'],
  card_played_wild: ['{who} played {cards} and named {color}', '{who} jogou {cards} e escolheu {color}'],
  drew_1: ['{who} drew a card', '{who} comprou uma carta'],
  drew_n: ['{who} drew {n} cards', '{who} comprou {n} cartas'],
  drew_penalty: ['{who} drew {n}: penalty', '{who} comprou {n}: penalização'],
  drew_starter: ['{who} drew {n}: the first card', '{who} comprou {n}: a primeira carta'],
  drew_caught: ['{who} drew {n}: caught without UNO', '{who} comprou {n}: apanhado sem UNO'],
  drew_uno: ['{who} drew {n}: UNO not said', '{who} comprou {n}: UNO não dito'],
  drew_bluff: ['{who} drew {n}: bluff caught', '{who} comprou {n}: bluff apanhado'],
  drew_challenge: ['{who} drew {n}: challenge lost', '{who} comprou {n}: desafio perdido'],
  color_discarded: ['{who} discarded {cards}', '{who} descartou {cards}'],
  cards_given: ['{who} gave {target} {n} cards', '{who} deu {n} cartas a {target}'],
  pile_reshuffled: ['The discard pile was shuffled into the draw pile', 'O monte de descarte foi baralhado no monte de compra'],
  passed: ['{who} passed', '{who} passou'],
  challenge_won: ['{who} challenged {target}: it was a bluff', '{who} desafiou {target}: era bluff'],
  challenge_lost: ['{who} challenged {target}: it was fair', '{who} desafiou {target}: era legítimo'],
  color_chosen: ['{who} named {color}', '{who} escolheu {color}'],
  uno_said: ['{who} said UNO!', '{who} disse UNO!'],
  uno_caught: ['{who} caught {target}', '{who} apanhou {target}'],
  hands_swapped: ['{who} and {target} swapped hands', '{who} e {target} trocaram de mão'],
  hands_rotated: ['Every hand passed on', 'Todas as mãos passaram ao seguinte'],
  timed_out: ['{who} ran out of time ({n})', '{who} ficou sem tempo ({n})'],
  bank_changed: ['{who}: {n} in the bank', '{who}: {n} no banco'],
  went_out: ['{who} went out', '{who} ficou sem cartas'],
  forfeited_timeout: ['{who} forfeited: out of time', '{who} perdeu por tempo'],
  forfeited_resign: ['{who} resigned', '{who} desistiu'],
  round_ended: ['Round {n} over: {who} went out, +{points}', 'Ronda {n} terminada: {who} ficou sem cartas, +{points}'],
  round_ended_none: ['Round {n} over', 'Ronda {n} terminada'],
  game_ended: ['Game over: {who} won', 'Fim do jogo: {who} ganhou'],
  auto: [' (out of time)', ' (tempo esgotado)'],
  jump_in: [' (jump-in)', ' (intromissão)'],
  uno: [' UNO!', ' UNO!'],
};

/** @param {GameView} view */
export function seatsOf(view) {
  return { names: new Map(view.seats.map((s) => [s.seat, s.player.username])), me: view.you ? view.you.seat : null };
}

/**
 * The name of a seat, "You" for the viewer's own (lower case inside a line).
 * @param {Seats} seats
 * @param {number | null | undefined} seat
 * @param {boolean} first
 */
function nameOf(seats, seat, first) {
  if (seat === null || seat === undefined) return '';
  if (seat === seats.me) {
    const you = currentLang() === 'pt' ? 'você' : 'you';
    return first ? you[0].toUpperCase() + you.slice(1) : you;
  }
  return seats.names.get(seat) ?? `#${seat}`;
}

/**
 * Which wording an event takes, and the values of its placeholders.
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {{key: string, who?: number, n?: number | string, target?: number, color?: string, points?: number, cards: string[], suffix: string[]}}
 */
function wording(event, seats) {
  /** @type {Record<string, any>} */
  const d = event.data ?? {};
  /** @type {string[]} */
  const cards = Array.isArray(d.cards) ? d.cards : [];
  const suffix = d.auto ? ['auto'] : [];
  switch (event.type) {
    case 'game_started':
      return { key: 'game_started', n: d.players, cards: [], suffix };
    case 'round_started':
      return { key: 'round_started', who: d.dealer, n: d.number, cards: [], suffix };
    case 'starter_returned':
    case 'starter_turned':
      return { key: event.type, cards: [d.card], suffix };
    case 'turn_changed': {
      const owed = d.pending && d.pending.type === 'draw_penalty' ? d.pending.amount : 0;
      const key = `turn${owed ? '_owes' : ''}${d.seat === seats.me ? '_mine' : ''}`;
      return { key, who: d.seat, n: owed, cards: [], suffix };
    }
    case 'card_played': {
      const top = cards[cards.length - 1] ?? '';
      const wild = top === 'wild' || top === 'wild-draw4';
      return {
        key: wild ? 'card_played_wild' : 'card_played', color: d.color, cards,
        suffix: [...(d.jump_in ? ['jump_in'] : []), ...(d.uno ? ['uno'] : []), ...suffix],
      };
    }
    case 'cards_drawn': {
      const n = d.count ?? cards.length;
      const reason = String(d.reason);
      if (reason === 'draw' || reason === 'take') {
        return { key: n === 1 ? 'drew_1' : 'drew_n', n, cards, suffix };
      }
      return { key: `drew_${reason}`, n, cards, suffix };
    }
    case 'color_discarded':
      return { key: 'color_discarded', cards, suffix: d.uno ? ['uno'] : [] };
    case 'cards_given':
      return { key: 'cards_given', n: d.count ?? cards.length, target: d.target, cards, suffix: d.uno ? ['uno'] : [] };
    case 'challenged':
      return { key: d.guilty ? 'challenge_won' : 'challenge_lost', target: d.target, cards: [], suffix };
    case 'color_chosen':
      return { key: 'color_chosen', color: d.color, cards: [], suffix };
    case 'uno_caught':
    case 'hands_swapped':
      return { key: event.type, target: d.target, cards: [], suffix };
    case 'timed_out':
      return { key: 'timed_out', n: d.count, cards: [], suffix };
    case 'bank_changed':
      return { key: 'bank_changed', n: duration(d.bank), cards: [], suffix };
    case 'forfeited':
      return { key: `forfeited_${d.reason === 'resign' ? 'resign' : 'timeout'}`, cards: [], suffix };
    case 'round_ended': {
      const won = d.winner_seat;
      return won === null || won === undefined
        ? { key: 'round_ended_none', n: d.number, cards: [], suffix }
        : { key: 'round_ended', who: won, n: d.number, points: d.points?.[won] ?? 0, cards: [], suffix };
    }
    case 'game_ended':
      return { key: 'game_ended', who: d.winner_seat, cards: [], suffix };
    default:
      return { key: event.type, cards: [], suffix };
  }
}

/**
 * Cards in a line: their pictures, each read as its name.
 * @param {string[]} cards
 * @returns {Child[]}
 */
const pictures = (cards) => cards.flatMap((card, i) => [i ? ' ' : '', cardEl(card, { tag: 'span', label: cardName(card), small: true, attrs: { role: 'img' } })]);

/**
 * The words and card pictures of one event.
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {Child[]}
 */
export function lineOf(event, seats) {
  const w = wording(event, seats);
  const pt = currentLang() === 'pt' ? 1 : 0;
  const template = (WORDS[w.key] ?? [event.type.replace(/_/g, ' '), event.type.replace(/_/g, ' ')])[pt]
    + w.suffix.map((s) => WORDS[s][pt]).join('');
  const who = w.who ?? event.seat;
  /** @type {Child[]} */
  const parts = [];
  template.split(/(\{\w+\})/).forEach((piece) => {
    if (piece === '{who}') parts.push(nameOf(seats, who, parts.every((p) => p === '')));
    else if (piece === '{target}') parts.push(nameOf(seats, w.target, false));
    else if (piece === '{n}') parts.push(String(w.n ?? ''));
    else if (piece === '{points}') parts.push(String(w.points ?? 0));
    else if (piece === '{color}') parts.push(w.color ? h('span', { class: `color-word c-${w.color}` }, t(/** @type {'red'} */ (w.color))) : '');
    else if (piece === '{cards}') {
      parts.push(...pictures(w.cards));
    } else parts.push(piece);
  });
  if (w.cards.length && !template.includes('{cards}')) {
    parts.push(' · ', ...pictures(w.cards));
  }
  return parts;
}

/**
 * One feed line (`li[data-seq]`).
 * @param {GameEvent} event
 * @param {Seats} seats
 */
export function feedItem(event, seats) {
  return h('li', { 'data-seq': event.seq, 'data-type': event.type, 'data-seat': event.seat ?? false }, ...lineOf(event, seats));
}

/**
 * The feed's region: a titled, scrollable list, newest first. `live`: a polite live region (the
 * table's; the replay's is not, its position line speaks).
 * @param {boolean} live
 */
export function feedRegion(live) {
  const list = h('ol', {
    class: 'feed-lines', 'data-region': 'feed', 'aria-labelledby': 'feed-title', tabindex: 0,
    'aria-live': live ? 'polite' : false, 'aria-relevant': live ? 'additions' : false,
  });
  const section = h('section', { class: 'feed panel' }, h('h2', { id: 'feed-title' }, t('moves')), list);
  return { section, list };
}

/**
 * Show `events` (sorted by seq) in `list`: lines it lacks are added, newest first; at most
 * `keep` lines stay.
 * @param {HTMLElement} list
 * @param {GameEvent[]} events
 * @param {Seats} seats
 * @param {number} [keep]
 */
export function showLines(list, events, seats, keep = 200) {
  const top = Number(list.firstElementChild?.getAttribute('data-seq') ?? 0);
  for (const event of events) if (event.seq > top) list.prepend(feedItem(event, seats));
  while (list.childElementCount > keep) list.lastElementChild?.remove();
}
