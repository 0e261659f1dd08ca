// The move feed: each event of the seat's own event log in words and card pictures, newest
// first, in a polite live region (a screen reader hears one line a move: the turn's and the
// bank's lines are shown but hidden from it, and the lines of what happened before the page
// opened come in before the list goes live). The table (table.js) and the replay (replay.js)
// show it. A line shows only the cards its event carries: the event as the log serves it to
// this seat, so it never shows a card the seat may not see.

import { cardEl, cardParts, h } from './dom.js';
import { cardName, currentLang, duration, t } from './i18n.js';

/** @typedef {import('./api.js').GameEvent} GameEvent */
/** @typedef {import('./api.js').GameView} GameView */
/** @typedef {import('./dom.js').Child} Child */

/**
 * Who sits where; me: the viewer's seat; gone: the seats not playing when the view was read;
 * log: the events known, by seq (a skip's line looks back at the card played).
 * @typedef {{names: Map<number, string>, me: number | null, gone: Set<number>, log: (seq: number) => GameEvent | undefined}} Seats
 */

/**
 * The wording, English and Portuguese. `{who}` is the seat that moved, `{target}` the other seat,
 * `{cards}` the cards (pictures: a line without the placeholder shows them at its end), `{n}` a
 * number, `{color}` a colour's name. A line whose mover is the viewer takes its `_mine` wording,
 * one whose other seat is the viewer its `_to_me` wording: European Portuguese addresses the
 * viewer by the verb alone ("Jogou", "deu-lhe", "consigo"), never as a name in a slot, and these
 * words need no gender.
 * @type {Record<string, [string, string]>}
 */
const WORDS = {
  game_started: ['The game began with {n} players', 'O jogo começou com {n} jogadores'],
  round_started: ['Round {n}, dealt by {who}', 'Ronda {n}, dada por {who}'],
  round_started_mine: ['Round {n}, dealt by you', 'Ronda {n}, dada por si'],
  starter_returned: ['{cards} turned first: back into the pile', '{cards} saiu primeiro: volta ao monte'],
  starter_turned: ['First card: {cards}', 'Primeira carta: {cards}'],
  turn: ['{who} to play', 'Vez de {who}'],
  turn_mine: ['Your turn', 'A sua vez'],
  turn_owes: ['{who} to play: {n} cards owed', 'Vez de {who}: {n} cartas em dívida'],
  turn_owes_mine: ['Your turn: {n} cards owed', 'A sua vez: {n} cartas em dívida'],
  card_played: ['{who} played {cards}', '{who} jogou {cards}'],
  card_played_mine: ['You played {cards}', 'Jogou {cards}'],
  card_played_wild: ['{who} played {cards} and named {color}', '{who} jogou {cards} e escolheu {color}'],
  card_played_wild_mine: ['You played {cards} and named {color}', 'Jogou {cards} e escolheu {color}'],
  drew_1: ['{who} drew a card', '{who} comprou uma carta'],
  drew_1_mine: ['You drew a card', 'Comprou uma carta'],
  drew_n: ['{who} drew {n} cards', '{who} comprou {n} cartas'],
  drew_n_mine: ['You drew {n} cards', 'Comprou {n} cartas'],
  drew_penalty: ['{who} drew {n} and was skipped', '{who} comprou {n} e perdeu a vez'],
  drew_penalty_mine: ['You drew {n} and were skipped', 'Comprou {n} e perdeu a vez'],
  skipped: ['{target} was skipped', '{target} perdeu a vez'],
  skipped_mine: ['You were skipped', 'Perdeu a vez'],
  drew_starter: ['{who} drew {n}: the first card', '{who} comprou {n}: a primeira carta'],
  drew_starter_mine: ['You drew {n}: the first card', 'Comprou {n}: a primeira carta'],
  drew_caught: ['{who} drew {n}: caught without UNO', '{who} comprou {n}: faltou dizer UNO'],
  drew_caught_mine: ['You drew {n}: caught without UNO', 'Comprou {n}: faltou dizer UNO'],
  drew_uno: ['{who} drew {n}: UNO not said', '{who} comprou {n}: UNO não dito'],
  drew_uno_mine: ['You drew {n}: UNO not said', 'Comprou {n}: UNO não dito'],
  drew_bluff: ['{who} drew {n}: bluff caught', '{who} comprou {n}: bluff apanhado'],
  drew_bluff_mine: ['You drew {n}: bluff caught', 'Comprou {n}: bluff apanhado'],
  drew_challenge: ['{who} drew {n}: challenge lost', '{who} comprou {n}: desafio perdido'],
  drew_challenge_mine: ['You drew {n}: challenge lost', 'Comprou {n}: desafio perdido'],
  color_discarded: ['{who} discarded {cards}', '{who} descartou {cards}'],
  color_discarded_mine: ['You discarded {cards}', 'Descartou {cards}'],
  cards_given: ['{who} gave {target} {n} cards', '{who} deu {n} cartas a {target}'],
  cards_given_mine: ['You gave {target} {n} cards', 'Deu {n} cartas a {target}'],
  cards_given_to_me: ['{who} gave you {n} cards', '{who} deu-lhe {n} cartas'],
  cards_given_1: ['{who} gave {target} a card', '{who} deu uma carta a {target}'],
  cards_given_1_mine: ['You gave {target} a card', 'Deu uma carta a {target}'],
  cards_given_1_to_me: ['{who} gave you a card', '{who} deu-lhe uma carta'],
  pile_reshuffled: ['The discard pile was shuffled into the draw pile', 'O monte de descarte foi baralhado no monte de compra'],
  passed: ['{who} passed', '{who} passou'],
  passed_mine: ['You passed', 'Passou'],
  challenge_won: ['{who} challenged {target}: it was a bluff', '{who} desafiou {target}: era bluff'],
  challenge_won_mine: ['You challenged {target}: it was a bluff', 'Desafiou {target}: era bluff'],
  challenge_won_to_me: ['{who} challenged you: it was a bluff', '{who} desafiou o seu +4: era bluff'],
  challenge_lost: ['{who} challenged {target}: it was fair', '{who} desafiou {target}: era legítimo'],
  challenge_lost_mine: ['You challenged {target}: it was fair', 'Desafiou {target}: era legítimo'],
  challenge_lost_to_me: ['{who} challenged you: it was fair', '{who} desafiou o seu +4: era legítimo'],
  color_chosen: ['{who} named {color}', '{who} escolheu {color}'],
  color_chosen_mine: ['You named {color}', 'Escolheu {color}'],
  uno_said: ['{who} said UNO!', '{who} disse UNO!'],
  uno_said_mine: ['You said UNO!', 'Disse UNO!'],
  uno_caught: ['{who} caught {target}', '{who} apanhou {target}'],
  uno_caught_mine: ['You caught {target}', 'Apanhou {target}'],
  uno_caught_to_me: ['{who} caught you', '{who} deu pela falta do seu UNO'],
  hands_swapped: ['{who} and {target} swapped hands', '{who} e {target} trocaram de mão'],
  hands_swapped_mine: ['You and {target} swapped hands', 'Trocou de mão com {target}'],
  hands_swapped_to_me: ['{who} and you swapped hands', '{who} trocou de mão consigo'],
  hands_rotated: ['Every hand passed on', 'Todas as mãos passaram ao seguinte'],
  timed_out: ['{who} ran out of time ({n})', '{who} ficou sem tempo ({n})'],
  timed_out_mine: ['You ran out of time ({n})', 'Ficou sem tempo ({n})'],
  bank_changed: ['{who}: {n} in the bank', '{who}: {n} no banco'],
  bank_changed_mine: ['Your bank: {n}', 'O seu banco: {n}'],
  went_out: ['{who} went out', '{who} ficou sem cartas'],
  went_out_mine: ['You went out', 'Ficou sem cartas'],
  forfeited_timeout: ['{who} forfeited: out of time', '{who} perdeu por tempo'],
  forfeited_timeout_mine: ['You forfeited: out of time', 'Perdeu por tempo'],
  forfeited_resign: ['{who} resigned', '{who} desistiu'],
  forfeited_resign_mine: ['You resigned', 'Desistiu'],
  seat_taken_over: ['{who} left: a bot plays on', '{who} saiu: um bot continua a jogar'],
  seat_taken_over_mine: ['You left: a bot plays on', 'Saiu: um bot continua a jogar'],
  round_ended: ['Round {n} over: {who} went out, +{points}', 'Ronda {n} terminada: {who} ficou sem cartas, +{points}'],
  round_ended_mine: ['Round {n} over: you went out, +{points}', 'Ronda {n} terminada: ficou sem cartas, +{points}'],
  round_ended_none: ['Round {n} over', 'Ronda {n} terminada'],
  game_ended: ['Game over: {who} won', 'Fim do jogo: {who} ganhou'],
  game_ended_mine: ['Game over: you won', 'Fim do jogo: ganhou'],
  game_ended_team: ['Game over: team {n} won', 'Fim do jogo: a equipa {n} ganhou'],
  auto: [' (out of time)', ' (tempo esgotado)'],
  jump_in: [' (jump-in)', ' (intromissão)'],
  uno: [' UNO!', ' UNO!'],
};

/**
 * @param {GameView} view
 * @param {Seats['log']} [log]
 * @returns {Seats}
 */
export function seatsOf(view, log = () => undefined) {
  return {
    names: new Map(view.seats.map((s) => [s.seat, s.player.username])), me: view.you ? view.you.seat : null,
    gone: new Set(view.seats.filter((s) => s.status !== 'playing').map((s) => s.seat)), log,
  };
}

/**
 * The name of a seat: its player's. The viewer is never a name in a slot: every wording that
 * names a seat has its `_mine` and `_to_me` forms (`fillIn` picks them).
 * @param {Seats} seats
 * @param {number | null | undefined} seat
 */
function nameOf(seats, seat) {
  if (seat === null || seat === undefined) return '';
  return seats.names.get(seat) ?? `#${seat}`;
}

/**
 * A line's wording: its key in WORDS and the values of its placeholders; skipped: the seat a
 * skip passed over (a turn's line says so).
 * @typedef {{key: string, who?: number, n?: number | string, target?: number, color?: string, points?: number, cards: string[], suffix: string[], skipped?: number}} Wording
 */

/**
 * The seat a skip passed over, at a turn change: the last card played since the turn before
 * (or the first card turned) is a skip (or a reverse, which skips with two players left), and
 * one seat still playing lies between its player (the dealer, for the first card) and the seat
 * to play now. A draw card's victim is named by its draw's line instead. Read from the events
 * before it, back to the round's start (the seats that left the round); when those are not
 * known, the seats the view had gone count as gone.
 * @param {GameEvent} event  a turn_changed
 * @param {Seats} seats
 * @returns {number | undefined}
 */
function skippedAt(event, seats) {
  /** @type {Record<string, any>} */
  const d = event.data;
  if (d.pending) return undefined;
  /** @type {string | undefined} */
  let card;
  /** @type {number | null | undefined} */
  let from;
  /** @type {Set<number>} the seats that left the round before this turn */
  const left = new Set();
  /** @type {number[] | undefined} the round's seats, from its start */
  let dealt;
  for (let seq = event.seq - 1, e = seats.log(seq); e; e = seats.log(--seq)) {
    /** @type {Record<string, any>} */
    const data = e.data;
    if (!card) {
      if (e.type === 'turn_changed') return undefined; // nothing played since the turn before
      if (e.type === 'card_played') [card, from] = [data.cards[data.cards.length - 1], e.seat];
      if (e.type === 'starter_turned' && cardParts(data.card).face === 'skip') card = data.card;
    }
    if (e.type === 'went_out' || e.type === 'forfeited') left.add(/** @type {number} */ (e.seat));
    if (e.type === 'round_started') {
      from ??= data.dealer;
      dealt = data.seats;
      break;
    }
  }
  const face = card ? cardParts(card).face : '';
  if (from === null || from === undefined || (face !== 'skip' && face !== 'reverse')) return undefined;
  const n = seats.names.size;
  /** @param {number} s */
  const gone = (s) => left.has(s) || (dealt ? !dealt.includes(s) : seats.gone.has(s));
  /** @type {number[]} */
  const between = [];
  for (let s = (from + d.direction + n) % n, i = 1; s !== d.seat && i < n; s = (s + d.direction + n) % n, i++) {
    if (!gone(s)) between.push(s);
  }
  return between.length === 1 ? between[0] : undefined;
}

/**
 * Which wording an event takes, and the values of its placeholders.
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {Wording}
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
      return { key, who: d.seat, n: owed, cards: [], suffix, skipped: skippedAt(event, seats) };
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
      // A draw card's victim (at once, or taking the penalty owed) loses the turn.
      if (reason === 'draw') return { key: n === 1 ? 'drew_1' : 'drew_n', n, cards, suffix };
      return { key: `drew_${reason === 'take' ? 'penalty' : reason}`, n, cards, suffix };
    }
    case 'color_discarded':
      return { key: 'color_discarded', cards, suffix: d.uno ? ['uno'] : [] };
    case 'cards_given': {
      const n = d.count ?? cards.length;
      return { key: n === 1 ? 'cards_given_1' : 'cards_given', n, target: d.target, cards, suffix: d.uno ? ['uno'] : [] };
    }
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
      // With teams a team wins (the end's banner says so), not the seat that went out last.
      return typeof d.winner_team === 'number'
        ? { key: 'game_ended_team', n: d.winner_team + 1, cards: [], suffix }
        : { key: 'game_ended', who: d.winner_seat, cards: [], suffix };
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
 * A wording's words and card pictures.
 * @param {Wording} w
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {Child[]}
 */
function fillIn(w, event, seats) {
  const pt = currentLang() === 'pt' ? 1 : 0;
  const who = w.who ?? event.seat;
  const words = (who === seats.me && WORDS[`${w.key}_mine`])
    || (w.target !== undefined && w.target === seats.me && WORDS[`${w.key}_to_me`])
    || WORDS[w.key];
  const template = (words ?? [event.type.replace(/_/g, ' '), event.type.replace(/_/g, ' ')])[pt]
    + w.suffix.map((s) => WORDS[s][pt]).join('');
  /** @type {Child[]} */
  const parts = [];
  template.split(/(\{\w+\})/).forEach((piece) => {
    if (piece === '{who}') parts.push(nameOf(seats, who));
    else if (piece === '{target}') parts.push(nameOf(seats, w.target));
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

/** Lines shown but not read out: the turn passing on, a bank's time (a move's line says it). */
const UNSAID = new Set(['turn_changed', 'bank_changed']);

/**
 * The words and card pictures of one event, and whether a screen reader is told them. A turn
 * after a skip starts with who was skipped: that part is told, the turn's is not.
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {{parts: Child[], said: boolean}}
 */
function line(event, seats) {
  const w = wording(event, seats);
  const parts = fillIn(w, event, seats);
  const skipped = w.skipped;
  if (skipped === undefined) return { parts, said: !UNSAID.has(event.type) };
  const skip = fillIn({ key: skipped === seats.me ? 'skipped_mine' : 'skipped', target: skipped, cards: [], suffix: [] }, event, seats);
  return { parts: [...skip, h('span', { 'aria-hidden': 'true' }, ' · ', ...parts)], said: true };
}

/**
 * The words and card pictures of one event.
 * @param {GameEvent} event
 * @param {Seats} seats
 * @returns {Child[]}
 */
export function lineOf(event, seats) {
  return line(event, seats).parts;
}

/**
 * One feed line (`li[data-seq]`); `aria-hidden` when it is not read out.
 * @param {GameEvent} event
 * @param {Seats} seats
 */
export function feedItem(event, seats) {
  const { parts, said } = line(event, seats);
  return h('li', { 'data-seq': event.seq, 'data-type': event.type, 'data-seat': event.seat ?? false, 'aria-hidden': !said && 'true' }, ...parts);
}

/**
 * The feed's region: a titled, scrollable list, newest first, and the line `empty` (No moves
 * yet) its page hides once the game has an event. `live`: a polite live region (the table's; the
 * replay's is not, its position line speaks), quiet (`aria-live="off"`) until its first lines
 * are in.
 * @param {boolean} live
 */
export function feedRegion(live) {
  const list = h('ol', {
    class: 'feed-lines', 'data-region': 'feed', 'aria-labelledby': 'feed-title', tabindex: 0,
    'aria-live': live && 'off', 'aria-relevant': live && 'additions',
  });
  // Said while the game has no event yet (a table waiting for players); hidden by its page.
  const empty = h('p', { class: 'muted small', 'data-empty': 'feed' }, t('no_moves'));
  const section = h('section', { class: 'feed panel' }, h('h2', { id: 'feed-title' }, t('moves')), list, empty);
  return { section, list, live, empty };
}

/** More lines than this at once (a catch-up after a gap) come in quietly. */
const QUIET_OVER = 5;

/**
 * Show `events` (sorted by seq) in the feed: lines it lacks are added, newest first; at most
 * `keep` lines stay. In a live feed, the first lines (what happened before the page opened) and
 * a catch-up come in while the list is quiet: it is live again once the page has drawn them,
 * so a screen reader reads the moves that come after, not the backlog.
 * @param {ReturnType<typeof feedRegion>} feed
 * @param {GameEvent[]} events
 * @param {Seats} seats
 * @param {number} [keep]
 */
export function showLines({ list, live }, events, seats, keep = 200) {
  const top = Number(list.firstElementChild?.getAttribute('data-seq') ?? 0);
  const fresh = events.filter((e) => e.seq > top);
  if (live && fresh.length && (list.getAttribute('aria-live') === 'off' || fresh.length > QUIET_OVER)) {
    list.setAttribute('aria-live', 'off');
    requestAnimationFrame(() => requestAnimationFrame(() => list.setAttribute('aria-live', 'polite')));
  }
  for (const event of fresh) list.prepend(feedItem(event, seats));
  while (list.childElementCount > keep) list.lastElementChild?.remove();
}
