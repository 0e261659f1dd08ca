// The table's state, and the one function that changes it: `reduce(state, message)`. The types,
// and when and why the view is read again (`state.stale`), are in web/types/table.d.ts.

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').GameEvent} GameEvent */
/** @typedef {import('../api.js').SeatView} SeatView */
/** @typedef {import('../api.js').Schemas['PlayAction']} PlayAction */
/** @typedef {import('../api.js').Schemas['CardEnum']} Card */
/** @typedef {import('../../types/table').Link} Link */
/** @typedef {import('../../types/table').Stale} Stale */
/** @typedef {import('../../types/table').Choice} Choice */
/** @typedef {import('../../types/table').Announcement} Announcement */
/** @typedef {import('../../types/table').Picking} Picking */
/** @typedef {import('../../types/table').TableState} TableState */
/** @typedef {import('../../types/table').Message} Message */

/** Every deal is from the whole deck (cards.DECK; a given deck is 108 codes too). */
const DECK_SIZE = 108;
const HAND_SIZE = 7;
/** Moves of a seat's own (they close the UNO catch window): the frames' types. */
const OWN_MOVES = new Set(['card_played', 'passed', 'challenged', 'color_chosen']);
/** The reasons the frames cannot be followed until the view is read: they wait in `ahead`. */
const LOST = new Set(['gap', 'hand', 'unknown']);
/** @type {Picking} */
const NOTHING_PICKED = { choice: null, unoArmed: false, selecting: false, selected: [] };

/**
 * @param {string} gameId
 * @param {{id: number, username: string} | null} me
 * @returns {TableState}
 */
export function initialState(gameId, me) {
  return {
    gameId, me, view: null, legalAt: -1, stale: null, ahead: [], reading: false, failed: false,
    turn: null, link: 'off', picking: NOTHING_PICKED, resigning: false, busy: false, focus: null,
    error: '', announce: null, fair: null,
  };
}

/**
 * @param {TableState} state
 * @param {Message} message
 * @returns {TableState}
 */
export function reduce(state, message) {
  switch (message.type) {
    case 'read':
      return { ...state, reading: true };
    case 'read-done':
      return withView({ ...state, reading: false, failed: false }, message.view);
    case 'read-failed':
      return { ...state, reading: false, failed: true, error: message.error };
    case 'view':
      return withView(state, message.view);
    case 'frame':
      return withFrame(state, message.seq, message.event);
    case 'link': {
      const back = message.link === 'live' && (state.link === 'reconnecting' || state.link === 'polling');
      return { ...state, link: message.link, stale: back ? state.stale ?? 'reconnect' : state.stale };
    }
    case 'error':
      return { ...state, error: message.error };
    case 'busy':
      return { ...state, busy: message.busy, error: message.busy ? '' : state.error };
    case 'pick':
      return { ...state, picking: { ...state.picking, ...message.picking }, focus: message.focus ?? state.focus };
    case 'resigning':
      return { ...state, resigning: message.on, focus: message.focus ?? state.focus };
    case 'focused':
      return state.focus === null ? state : { ...state, focus: null };
    case 'fair':
      return { ...state, fair: { verified: message.verified, seed: message.seed } };
  }
  return state;
}

/** Whether the page may show the state: it is whole, or a read failed and it is all there is. */
export function shown(/** @type {TableState} */ state) {
  return !!state.view && (!state.stale || state.failed);
}

/**
 * Whether the view must be read now. Not while an action of the person's is on its way for the
 * actions alone: its answer is the view, the actions with it.
 */
export function mustRead(/** @type {TableState} */ state) {
  return !!state.view && !!state.stale && !state.reading && !state.failed && !(state.busy && state.stale === 'actions');
}

/** The legal actions of the version shown: none while they are stale. */
export function legalActions(/** @type {TableState} */ state) {
  const view = state.view;
  return view?.you && state.legalAt === view.version ? view.you.legal_actions : [];
}

/**
 * A view read or answered: the whole game as the server sees it. An older one than the frames
 * already applied is dropped (a later read brings the actions), unless the game's status moved.
 * @param {TableState} state
 * @param {GameView} view
 * @returns {TableState}
 */
function withView(state, view) {
  const before = state.view;
  if (before && view.version < before.version && view.status === before.status) return state;
  const moved = !before || view.version !== before.version || view.status !== before.status;
  let next = {
    ...state,
    view,
    legalAt: view.version,
    stale: null,
    turn: null,
    ...(moved ? moves(state, before, view) : {}),
  };
  const ahead = state.ahead.filter((e) => e.seq > view.version);
  next = { ...next, ahead: [] };
  for (const event of ahead) next = withFrame(next, event.seq, event);
  return next;
}

/**
 * What changes in the state when the game moves: the picking is dropped, and the move may be
 * announced.
 * @param {TableState} state
 * @param {GameView | null} before
 * @param {GameView} after
 * @returns {Partial<TableState>}
 */
function moves(state, before, after) {
  const what = announcement(before, after);
  return {
    picking: NOTHING_PICKED,
    announce: what ? { n: (state.announce?.n ?? 0) + 1, what } : state.announce,
  };
}

/**
 * @param {GameView | null} before
 * @param {GameView} after
 * @returns {Announcement | null}
 */
function announcement(before, after) {
  const mine = (/** @type {GameView | null} */ v) => !!v && v.status === 'active' && !!v.you && v.round?.current_seat === v.you.seat;
  if (mine(after) && !mine(before)) return { kind: 'your_turn', top: after.round?.top_card ?? null };
  return null;
}

/**
 * A stream frame: applied when it is the next seq, kept when it is past a gap.
 * @param {TableState} state
 * @param {number} seq
 * @param {GameEvent | null} event
 * @returns {TableState}
 */
function withFrame(state, seq, event) {
  const view = state.view;
  if (!view || seq <= view.version) return state;
  if (!event || seq !== view.version + 1 || (state.stale && LOST.has(state.stale))) {
    const ahead = event && !state.ahead.some((e) => e.seq === seq)
      ? [...state.ahead, event].sort((a, b) => a.seq - b.seq)
      : state.ahead;
    return { ...state, ahead, stale: state.stale ?? (event ? 'gap' : 'unknown'), failed: false };
  }
  const { view: after, stale } = applyEvent(view, event);
  if (!after) return { ...state, stale, failed: false };
  const until = deadline(state);
  const mover = event.seat === null ? undefined : seatOf(view, event.seat);
  const takeover = !!view.settings.bot_takeover && !!mover && !mover.bot && OWN_MOVES.has(event.type)
    && !('auto' in event.data && event.data.auto) && mover.timeouts >= view.settings.max_timeouts - 1 && (until === null || Date.parse(event.at) >= until - 2000);
  const acts = mayAct(after);
  if (!acts && after.you) after.you.legal_actions = [];
  const still = state.stale === 'actions' ? null : state.stale;
  return {
    ...state,
    view: after,
    legalAt: acts ? state.legalAt : after.version,
    stale: stale ?? (takeover ? 'takeover' : null) ?? still ?? (acts ? 'actions' : null),
    failed: false,
    turn: event.type === 'turn_changed' ? { seat: event.data.seat, at: event.at } : state.turn,
    ...moves(state, view, after),
  };
}

/**
 * Whether the seat may have something to do in `view`: the necessary conditions of every action
 * the server may offer it (the header says which). False: it is offered nothing.
 * @param {GameView} view
 */
export function mayAct(view) {
  const you = view.you;
  const round = view.round;
  if (view.status !== 'active' || !you || !round) return false;
  const own = seatOf(view, you.seat);
  if (!own || own.status !== 'playing') return false;
  if (round.current_seat === you.seat || round.pending?.seat === you.seat) return true;
  if (you.hand.length === 1 && !own.uno) return true;
  if (view.seats.some((s) => s.catchable && s.seat !== you.seat)) return true;
  return !!view.settings.rules.jump_in && !round.pending && !!round.top_card && you.hand.includes(round.top_card);
}

/**
 * @param {GameView} view
 * @param {number} seat
 * @returns {SeatView | undefined}
 */
export function seatOf(view, seat) {
  return view.seats.find((s) => s.seat === seat);
}

/** The colour of a card code: `red-7` is red, a wild has none. */
const colorOf = (/** @type {Card} */ card) =>
  card === 'wild' || card === 'wild-draw4' ? null : /** @type {import('../api.js').Schemas['ColorEnum']} */ (card.slice(0, card.indexOf('-')));



/**
 * One event applied to a view, as the server's engine applies it to its state (the fields the
 * view shows): a new view, or null when the event cannot be followed; `stale` when the view
 * must be read for what the frame does not carry. The legal actions are left to the caller.
 * @param {GameView} view
 * @param {GameEvent} event
 * @returns {{view: GameView | null, stale: Stale | null}}
 */
export function applyEvent(view, event) {
  /** @param {Stale} why */
  const lost = (why) => ({ view: null, stale: why });
  const v = structuredClone(view);
  const round = v.round;
  if (!round && event.type !== 'round_started') return lost('unknown');
  v.version = event.seq;
  const me = v.you ? v.you.seat : null;
  const at = event.seat === null ? undefined : seatOf(v, event.seat);
  const all = v.seats;
  /** @type {Stale | null} */
  let stale = null;
  /**
   * @param {Card[]} cards
   * @returns {boolean} false: a card is not in the hand (the table lost track)
   */
  const takeFromHand = (cards) => {
    if (!v.you) return true;
    for (const card of cards) {
      const index = v.you.hand.indexOf(card);
      if (index < 0) return false;
      v.you.hand.splice(index, 1);
    }
    return true;
  };
  /** The UNO state of the seat once its play leaves it `at.hand_count` cards. */
  const settle = (/** @type {SeatView} */ s, /** @type {boolean} */ said) => {
    s.uno = s.hand_count === 1 && said;
    s.catchable = s.hand_count === 1 && !said;
  };
  const closeCatches = () => all.forEach((s) => { s.catchable = false; });
  const owned = event.seat !== null && event.seat === me;
  const auto = 'auto' in event.data && !!event.data.auto;

  if (OWN_MOVES.has(event.type) || (event.type === 'cards_drawn' && (event.data.reason === 'draw' || event.data.reason === 'take'))) {
    if (!at) return lost('unknown');
    closeCatches();
    if (!auto) at.timeouts = 0;
  }

  switch (event.type) {
    case 'round_started': {
      const d = event.data;
      const dealt = new Set(d.seats);
      v.round = {
        number: d.number, dealer: d.dealer, current_seat: d.seats[0], direction: 1, top_card: null,
        color: null, draw_pile: DECK_SIZE - HAND_SIZE * d.seats.length, discard_pile: 0, pending: null,
      };
      for (const s of all) {
        s.hand_count = dealt.has(s.seat) ? HAND_SIZE : 0;
        s.uno = false;
        s.catchable = false;
        if (s.status === 'out') s.status = 'playing';
      }
      if (v.you) {
        if (dealt.has(v.you.seat) && !d.hand) return lost('hand');
        v.you.hand = d.hand ?? [];
      }
      break;
    }
    case 'starter_returned':
      break; // the card goes back into the draw pile: nothing shown changes
    case 'starter_turned':
      if (!round) return lost('unknown');
      round.draw_pile -= 1;
      round.discard_pile = 1;
      round.top_card = event.data.card;
      round.color = colorOf(event.data.card);
      break;
    case 'turn_changed': {
      if (!round) return lost('unknown');
      const d = event.data;
      round.current_seat = d.seat;
      round.direction = d.direction;
      round.pending = d.pending ?? null;
      if (seatOf(v, d.pending?.seat ?? d.seat)?.on_vacation_until) stale = 'clock';
      break;
    }
    case 'card_played': {
      if (!round || !at) return lost('unknown');
      const d = event.data;
      at.hand_count -= d.cards.length;
      if (owned && !takeFromHand(d.cards)) return lost('hand');
      if (at.hand_count === 1 && d.uno) at.uno = true;
      else if (at.hand_count !== 1) at.uno = false;
      closeCatches();
      at.catchable = at.hand_count === 1 && !d.uno;
      round.discard_pile += d.cards.length;
      round.top_card = d.cards[d.cards.length - 1];
      round.color = d.color;
      round.pending = null;
      break;
    }
    case 'cards_drawn': {
      if (!round || !at) return lost('unknown');
      const d = event.data;
      at.hand_count += d.count;
      if (owned) {
        if (!d.cards || !v.you) return lost('hand');
        v.you.hand.push(...d.cards);
      }
      if (at.hand_count !== 1) at.uno = false;
      at.catchable = false;
      round.draw_pile -= d.count;
      break;
    }
    case 'color_discarded': {
      if (!round || !at) return lost('unknown');
      const d = event.data;
      at.hand_count -= d.cards.length;
      if (owned && !takeFromHand(d.cards)) return lost('hand');
      round.discard_pile += d.cards.length;
      settle(at, d.uno);
      break;
    }
    case 'cards_given': {
      const d = event.data;
      const to = seatOf(v, d.target);
      if (!at || !to) return lost('unknown');
      at.hand_count -= d.count;
      to.hand_count += d.count;
      if (owned || d.target === me) {
        if (!d.cards || !v.you) return lost('hand');
        if (owned && !takeFromHand(d.cards)) return lost('hand');
        if (d.target === me) v.you.hand.push(...d.cards);
      }
      settle(at, d.uno);
      to.uno = false;
      to.catchable = false;
      break;
    }
    case 'pile_reshuffled':
      if (!round) return lost('unknown');
      round.draw_pile = event.data.draw_pile_count;
      round.discard_pile = Math.min(round.discard_pile, 1);
      break;
    case 'passed':
      break;
    case 'challenged':
      if (!round) return lost('unknown');
      if (event.data.guilty) round.color = event.data.color;
      break;
    case 'color_chosen':
      if (!round) return lost('unknown');
      round.color = event.data.color;
      break;
    case 'uno_said':
      if (!at) return lost('unknown');
      at.uno = true;
      at.catchable = false;
      break;
    case 'uno_caught': {
      const caught = seatOf(v, event.data.target);
      if (caught) caught.catchable = false;
      break;
    }
    case 'hands_swapped': {
      const other = seatOf(v, event.data.target);
      if (!at || !other) return lost('unknown');
      if (owned || event.data.target === me) return lost('hand');
      [at.hand_count, other.hand_count] = [other.hand_count, at.hand_count];
      for (const s of [at, other]) {
        s.uno = false;
        s.catchable = false;
      }
      break;
    }
    case 'hands_rotated': {
      const holders = all.filter((s) => s.status === 'playing').sort((a, b) => a.seat - b.seat);
      if (holders.some((s) => s.seat === me)) return lost('hand');
      if (event.data.direction < 0) holders.reverse();
      const counts = holders.map((s) => s.hand_count);
      counts.forEach((count, i) => { holders[(i + 1) % holders.length].hand_count = count; });
      for (const s of all) {
        s.uno = false;
        s.catchable = false;
      }
      break;
    }
    case 'timed_out':
      if (!at) return lost('unknown');
      at.timeouts = event.data.count;
      closeCatches();
      stale = 'clock';
      break;
    case 'bank_changed':
      if (!at) return lost('unknown');
      at.bank = event.data.bank;
      break;
    case 'went_out':
      if (!at) return lost('unknown');
      at.status = 'out';
      break;
    case 'forfeited':
      if (!round || !at) return lost('unknown');
      at.hand_count = 0;
      at.status = 'forfeited';
      at.uno = false;
      at.catchable = false;
      round.draw_pile = event.data.draw_pile_count;
      if (owned && v.you) v.you.hand = [];
      break;
    case 'round_ended': {
      const d = event.data;
      for (const s of all) s.score += d.points[s.seat] ?? 0;
      v.last_round = {
        number: d.number, winner_seat: d.winner_seat, points: d.points,
        hands: Object.fromEntries(d.hands.map((cards, seat) => [String(seat), cards])),
      };
      if (round) round.pending = null;
      closeCatches();
      break;
    }
    case 'game_ended':
      v.status = 'finished';
      v.winner_seat = event.data.winner_seat;
      if (v.settings.teams) v.winner_team = event.data.winner_team ?? null;
      if (round) round.pending = null;
      closeCatches();
      stale = 'finished';
      break;
    default:
      return lost('unknown'); // game_started (the table reads the view when a game starts), or a new type
  }
  if (event.type === 'round_started' || event.type === 'turn_changed') {
    const r = /** @type {NonNullable<GameView['round']>} */ (v.round);
    delete r.turn_deadline;
    delete r.bank_runs_out_at;
  }
  return { view: v, stale };
}

/**
 * When the turn shown runs out (ms since the epoch), or null when the table does not know: the
 * view's deadline, or, once a frame changed the turn, the frame's time and the seat's allowance.
 * @param {TableState} state
 * @returns {number | null}
 */
export function deadline(state) {
  const view = state.view;
  const round = view?.round;
  if (!view || !round || view.status !== 'active') return null;
  const turn = state.turn;
  if (!turn) {
    const until = round.bank_runs_out_at ?? round.turn_deadline;
    return until ? Date.parse(until) : null;
  }
  const seat = seatOf(view, round.pending?.seat ?? turn.seat);
  if (!seat || seat.bot) return null;
  const allowance = view.settings.clock.type === 'bank' ? seat.bank : view.settings.turn_timeout;
  return typeof allowance === 'number' ? Date.parse(turn.at) + allowance * 1000 : null;
}

/**
 * The plays of a card with or without UNO, as the UNO! toggle says.
 * @param {PlayAction[]} options
 * @param {boolean} unoArmed
 */
export function withUno(options, unoArmed) {
  const said = options.filter((a) => a.uno);
  if (!said.length) return options;
  return unoArmed ? said : options.filter((a) => !a.uno);
}

/**
 * The complete plays of `card` the server offers now.
 * @param {TableState} state
 * @param {Card} card
 * @returns {PlayAction[]}
 */
export function playsOf(state, card) {
  return /** @type {PlayAction[]} */ (legalActions(state).filter((a) => a.action === 'play' && /** @type {PlayAction} */ (a).card === card));
}
