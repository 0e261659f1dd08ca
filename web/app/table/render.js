// The table drawn from its state: `renderTable(state, on)` returns the board's parts; nothing
// here keeps or changes state. What a click does goes through `on` (actions.js).

import { cardBack, cardEl, h } from '../dom.js';
import { cardName, countdown, currentLang, t } from '../i18n.js';
import { clockText, ruleSummary } from '../rules.js';
import { deadline, legalActions, playsOf, seatOf, withUno } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').Choice} Choice */
/** @typedef {import('./state.js').Picking} Picking */
/** @typedef {import('./state.js').Announcement} Announcement */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').Action} Action */
/** @typedef {import('../api.js').BotLevel} BotLevel */
/** @typedef {import('../api.js').Schemas['PlayAction']} PlayAction */
/** @typedef {import('../api.js').Schemas['ColorEnum']} Color */
/** @typedef {import('../api.js').Schemas['CardEnum']} Card */

/**
 * What the board's controls call (actions.js). `send` takes the version the board showed: the
 * action is refused if the game moved past it.
 * @typedef {{
 *   send: (action: Action, version: number) => void,
 *   pick: (picking: Partial<Picking>, focus?: string | null) => void,
 *   playCard: (card: Card) => void,
 *   advance: (choice: Choice) => void,
 *   playSelected: () => void,
 *   resigning: (on: boolean, focus?: string | null) => void,
 *   call: (what: 'join' | 'start' | 'resign' | 'rematch') => void,
 *   leave: () => void,
 *   addBot: (level: BotLevel) => void,
 *   download: () => void,
 * }} Handlers
 */

/** @type {Color[]} */
const COLORS = ['red', 'yellow', 'green', 'blue'];

/** @param {TableState['link']} link */
export function linkText(link) {
  return link === 'live' ? t('live') : link === 'reconnecting' ? t('reconnecting') : link === 'polling' ? t('polling') : '';
}

/**
 * When bots take a quick match's free seats (the view's `bots_fill_at`), counted down.
 * @param {string} at
 * @param {number} now
 */
export function botsFillText(at, now) {
  const left = (Date.parse(at) - now) / 1000;
  return left > 0 ? t('bots_fill_in', { time: countdown(left) }) : t('bots_filling');
}

/**
 * @param {TableState} state
 * @param {number} now  ms since the epoch
 */
export function deadlineText(state, now) {
  const until = deadline(state);
  return until === null ? '' : t('deadline', { t: countdown((until - now) / 1000) });
}

/**
 * @param {GameView} view
 * @param {number} seat
 */
const nameOf = (view, seat) => seatOf(view, seat)?.player.username ?? `#${seat}`;

/**
 * The turn coming to you, with the card to play on (the round's and the game's ends are the
 * feed's lines).
 * @param {Announcement} what
 */
export function announcementText(what) {
  return what.top ? `${t('your_turn')}: ${cardName(what.top)}` : t('your_turn');
}

/** Whether it is the person's turn (the tab's title says so). */
export function myTurn(/** @type {TableState} */ state) {
  const v = state.view;
  return !!v && v.status === 'active' && !!v.you && v.round?.current_seat === v.you.seat;
}

/**
 * The board's parts.
 * @param {TableState} state
 * @param {Handlers} on
 * @param {number} now  ms since the epoch (the countdown)
 * @returns {(Node | null)[]}
 */
export function renderTable(state, on, now) {
  const v = state.view;
  if (!v) return [h('p', { class: 'muted' }, t('loading'))];
  const me = state.me;
  const you = v.you;
  const legal = legalActions(state);
  const round = v.round;
  // The caller's seat, if any (a seat a bot plays on for them too: bot_takeover, after they left).
  const mine = me ? v.seats.find((s) => s.player.id === me.id) : undefined;
  const seated = !!mine;
  /** @param {Action} action */
  const send = (action) => on.send(action, v.version);
  /** @type {(Node | null)[]} */
  const parts = [];

  parts.push(header(state, now));
  // The end first: on a phone it is seen without scrolling past the revealed hands.
  if (v.status === 'finished' || v.status === 'abandoned') parts.push(endPanel(state, seated, on));
  if (v.status === 'waiting') parts.push(waitingPanel(state, seated, on, now));
  if (round && (v.status === 'active' || v.status === 'finished')) {
    parts.push(seatsList(state, legal, send));
    parts.push(centre(v));
  } else if (v.status !== 'waiting') {
    parts.push(seatsList(state, legal, send));
  }
  if (v.status === 'active' && !you) parts.push(h('p', { class: 'muted' }, t(mine?.bot ? 'bot_plays_your_seat' : 'spectating')));
  if (v.status === 'active' && you) {
    parts.push(prompt(state, send, on));
    parts.push(actionBar(state, legal, send, on));
    parts.push(handView(state, on));
  }
  if (v.status === 'active' && mine && mine.status === 'playing' && !mine.bot) parts.push(resignBar(state, on));
  if (v.last_round) parts.push(lastRound(v, me));
  return parts;
}

/**
 * @param {TableState} state
 * @param {number} now
 */
function header(state, now) {
  const v = /** @type {GameView} */ (state.view);
  const me = state.me;
  const round = v.round;
  const current = round ? seatOf(v, round.current_seat) : undefined;
  const yours = !!(current && me && current.player.id === me.id);
  const settings = v.settings;
  const rules = ruleSummary(settings.rules, currentLang() === 'pt' ? 1 : 0);
  const commitment = v.deck_commitment;
  return h('div', { class: 'table-head' },
    h('h1', {}, v.status === 'finished' ? t('game_over_title') : v.status === 'abandoned' ? t('game_abandoned_title')
      : round ? t('round_n', { n: round.number }) : t('waiting_players')),
    // The last round's result, at the top of the next one (its hands are below the table).
    v.status === 'active' && v.last_round ? h('p', { class: 'round-result' }, roundOver(v, me), ' ',
      v.last_round.winner_seat !== null && v.last_round.points[v.last_round.winner_seat]
        ? h('span', { class: 'tag' }, t('points_n', { n: v.last_round.points[v.last_round.winner_seat] })) : null) : null,
    v.status === 'active' && current
      ? h('p', { class: yours ? 'turn yours' : 'turn', 'data-turn': current.seat }, yours ? t('your_turn') : t('turn_of', { name: current.player.username }),
        ' ', h('span', { class: 'deadline', 'aria-live': 'off' }, deadlineText(state, now)))
      : null,
    h('p', { class: 'muted small' }, `${clockText(settings)} · ${t('target_score')} ${settings.target_score}`,
      rules.length ? ` · ${rules.join(' · ')}` : '',
      ' ', h('span', { class: 'link-state' }, linkText(state.link))),
    commitment && v.status !== 'finished'
      ? h('p', { class: 'muted small commitment', title: commitment }, `${t('deck_commitment')}: `, h('code', {}, `${commitment.slice(0, 16)}…`))
      : null);
}

/**
 * @param {TableState} state
 * @param {Action[]} legal
 * @param {(action: Action) => void} send
 */
function seatsList(state, legal, send) {
  const v = /** @type {GameView} */ (state.view);
  const me = state.me;
  const round = v.round;
  return h('ul', { class: 'seats', 'data-region': 'seats', 'aria-label': t('seats') },
    v.seats.map((s) => {
      const current = v.status === 'active' && round?.current_seat === s.seat;
      const catchIt = legal.find((a) => a.action === 'catch' && a.target === s.seat);
      const mine = !!me && s.player.id === me.id;
      return h('li', {
        class: ['seat', current ? 'current' : '', mine ? 'mine' : '', s.status !== 'playing' ? 'gone' : ''].join(' '),
        'data-seat': s.seat, 'aria-current': current ? 'true' : false,
      },
      h('div', { class: 'seat-name' },
        // By id, which any reader's page finds (a name only among their games and the leaderboard).
        h('a', { href: `#/players/${s.player.id}?game=${v.id}&seq=${v.version}` }, s.player.username),
        mine ? h('span', { class: 'tag' }, t('you')) : null,
        s.bot ? h('span', { class: 'tag' }, `${t('bot')} ${t(/** @type {'bot_basic'} */ (`bot_${s.bot}`))}`) : null,
        s.bot_account && !s.bot ? h('span', { class: 'tag bot-account' }, t('bot_account')) : null,
        s.team !== undefined && v.settings.teams ? h('span', { class: `tag team-${s.team}` }, t('team_n', { n: s.team + 1 })) : null),
      h('div', { class: 'seat-stats' },
        h('span', { class: 'count', 'data-hand-count': s.hand_count }, s.hand_count === 1 ? t('card_1') : t('cards_n', { n: s.hand_count })),
        h('span', { class: 'score' }, t('score_n', { n: s.score })),
        s.uno ? h('span', { class: 'tag uno' }, t('uno_said')) : null,
        s.status === 'forfeited' ? h('span', { class: 'tag' }, t('forfeited')) : null,
        s.status === 'out' ? h('span', { class: 'tag' }, t('out')) : null,
        s.on_vacation_until ? h('span', { class: 'tag' }, t('on_vacation')) : null,
        typeof s.bank === 'number' ? h('span', { class: 'muted small' }, t('bank_left', { t: countdown(s.bank) })) : null),
      s.hand && s.hand.length
        ? h('div', { class: 'mini-hand' }, s.hand.map((c) => cardEl(c, { label: cardName(c), small: true })))
        : h('div', { class: 'backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(s.hand_count, 12) }, () => h('span', { class: 'back-mini' }))),
      catchIt
        ? h('button', { type: 'button', class: 'danger', 'aria-label': t('catch_name', { name: s.player.username }), 'data-key': `catch-${s.seat}`,
          onclick: () => send(catchIt) }, t('catch'))
        : null);
    }));
}

/** @param {GameView} v */
function centre(v) {
  const round = v.round;
  if (!round) return null;
  const dir = round.direction === 1 ? t('clockwise') : t('counterclockwise');
  return h('div', { class: 'centre' },
    h('div', { class: 'pile' }, cardBack(), h('span', { class: 'muted small' }, t('draw_pile_n', { n: round.draw_pile }))),
    h('div', { class: 'pile', 'data-region': 'discard', role: 'group', 'aria-label': t('discard_pile') },
      round.top_card ? cardEl(round.top_card, { label: `${t('discard_pile')}: ${cardName(round.top_card)}` }) : null),
    h('div', { class: 'state' },
      round.color
        ? h('p', { class: `color-chip c-${round.color}`, 'data-color': round.color }, t('current_color', { color: t(round.color) }))
        : null,
      h('p', { class: 'direction', 'data-direction': round.direction }, h('span', { 'aria-hidden': 'true', class: round.direction === 1 ? 'cw' : 'ccw' }, '↻'), ` ${t('direction')}: ${dir}`)));
}

/**
 * A colour picker's button, named by its colour's word: in colour-blind mode its shape and
 * letter (CSS) stay out of the name.
 * @param {Color} color
 * @param {() => void} onclick
 */
const swatch = (color, onclick) => h('button', { type: 'button', class: `swatch c-${color}`, 'data-key': `color-${color}`, 'aria-label': t(color), onclick }, t(color));

/**
 * The choice in progress (colour, seat, gift), or what the game waits for from the person.
 * @param {TableState} state
 * @param {(action: Action) => void} send
 * @param {Handlers} on
 */
function prompt(state, send, on) {
  const v = /** @type {GameView} */ (state.view);
  const { choice, unoArmed } = state.picking;
  const pending = v.round?.pending;
  const yours = v.you && pending && pending.seat === v.you.seat;
  const cancel = () => h('button', { type: 'button', class: 'link', onclick: () => on.pick({ choice: null }) }, t('cancel'));
  /** @param {Action} action */
  const choose = (action) => () => { on.pick({ choice: null }); send(action); };
  if (choice) {
    const c = choice;
    const options = withUno(c.options, unoArmed);
    if (c.step === 'color') {
      const colors = COLORS.filter((color) => options.some((a) => a.color === color));
      return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_color') },
        h('p', {}, `${cardName(c.card)}: ${lower(t('choose_color'))}`),
        h('div', { class: 'picker' }, colors.map((color) => swatch(color,
          () => on.advance({ ...c, options: options.filter((a) => a.color === color), step: 'target' }))),
        cancel()));
    }
    if (c.step === 'target') {
      const withTarget = options.filter((a) => a.target !== undefined);
      const without = options.find((a) => a.target === undefined);
      return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_seat') },
        h('p', {}, `${cardName(c.card)}: ${lower(t('choose_seat'))}`),
        h('div', { class: 'picker' },
          withTarget.map((a) => h('button', { type: 'button', 'data-key': `target-${a.target}`, 'data-seat': a.target,
            onclick: choose(a) }, nameOf(v, /** @type {number} */ (a.target)))),
          without ? h('button', { type: 'button', onclick: choose(without) }, t('no_swap')) : null,
          cancel()));
    }
    const hand = v.you?.hand ?? [];
    const base = options[0];
    const others = v.seats.filter((s) => s.seat !== v.you?.seat && s.status === 'playing');
    return h('div', { class: 'prompt', role: 'group', 'aria-label': t('give_cards') },
      h('p', {}, `${cardName(c.card)}: ${lower(t('give_cards'))}`),
      h('div', { class: 'picker' }, hand.map((code, i) => {
        if (i === hand.indexOf(c.card)) return null;
        const pressed = c.give.includes(i);
        return cardEl(code, { tag: 'button', label: cardName(code), small: true, attrs: {
          type: 'button', 'aria-pressed': pressed ? 'true' : 'false', 'data-key': `give-${i}`,
          disabled: !pressed && c.give.length >= 2,
          onclick: () => on.pick({ choice: { ...c, give: pressed ? c.give.filter((j) => j !== i) : [...c.give, i] } }) } });
      })),
      c.give.length
        ? h('div', { class: 'picker' }, h('span', {}, t('give_to')), others.map((s) => h('button', { type: 'button', 'data-seat': s.seat,
          onclick: () => {
            const give = c.give.map((i) => hand[i]);
            /** @type {PlayAction} */
            const action = { ...base, target: s.seat, give };
            if (hand.length - 1 - give.length === 1) action.uno = true;
            else delete action.uno;
            choose(action)();
          } }, s.player.username)))
        : null,
      h('div', { class: 'picker' },
        h('button', { type: 'button', onclick: choose(base) }, t('give_nothing')),
        cancel()));
  }
  // UNO! is pressed before a play that leaves one card.
  const uno = unoArmed ? 'uno_armed' : legalActions(state).some((a) => /** @type {PlayAction} */ (a).uno) && 'uno_first';
  if (!pending || !yours) return uno ? h('p', { class: 'prompt muted' }, t(uno)) : null;
  if (pending.type === 'wild_draw4') {
    return h('p', { class: 'prompt' }, t('pending_wd4', { name: nameOf(v, pending.from_seat), n: pending.amount }));
  }
  if (pending.type === 'draw_penalty') return h('p', { class: 'prompt' }, t('pending_penalty', { n: pending.amount }));
  if (pending.type === 'play_drawn' && pending.card) return h('p', { class: 'prompt' }, t('pending_drawn', { card: cardName(pending.card) }));
  if (pending.type === 'color') {
    const legal = legalActions(state);
    return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_color') }, h('p', {}, t('pending_color')),
      h('div', { class: 'picker' }, COLORS.map((color) => {
        const action = legal.find((a) => a.action === 'color' && a.color === color);
        return action ? swatch(color, () => send(action)) : null;
      })));
  }
  return null;
}

/**
 * @param {TableState} state
 * @param {Action[]} legal
 * @param {(action: Action) => void} send
 * @param {Handlers} on
 */
function actionBar(state, legal, send, on) {
  const v = /** @type {GameView} */ (state.view);
  const { unoArmed, selecting, selected, choice } = state.picking;
  const hand = v.you?.hand ?? [];
  // While a card's choice is open, only it (or Cancel) goes on.
  const busy = !!choice;
  /** @param {string} kind */
  const has = (kind) => legal.some((a) => a.action === kind);
  const canPlay = has('play');
  const unoVariant = legal.some((a) => a.action === 'play' && /** @type {PlayAction} */ (a).uno);
  const multi = v.settings.rules.multi_play || v.settings.rules.color_runs;
  const selectionLeavesOne = selecting && selected.length > 0 && hand.length - selected.length === 1;
  /** @param {Action} action */
  const bySend = (action) => () => send(action);
  const drawAction = legal.find((a) => a.action === 'draw');
  const buttons = [
    drawAction ? h('button', { type: 'button', class: 'primary', 'data-key': 'draw', disabled: busy, onclick: bySend(drawAction) }, t('draw')) : null,
    has('pass') ? h('button', { type: 'button', 'data-key': 'pass', disabled: busy, onclick: bySend({ action: 'pass' }) }, t('pass')) : null,
    has('challenge') ? h('button', { type: 'button', 'data-key': 'challenge', disabled: busy, onclick: bySend({ action: 'challenge' }) }, t('challenge')) : null,
    has('accept') ? h('button', { type: 'button', 'data-key': 'accept', disabled: busy, onclick: bySend({ action: 'accept' }) }, t('accept')) : null,
    has('uno')
      ? h('button', { type: 'button', class: 'uno', 'data-key': 'uno', disabled: busy, onclick: bySend({ action: 'uno' }) }, t('uno'))
      : (unoVariant || selectionLeavesOne)
        ? h('button', { type: 'button', class: 'uno', 'data-key': 'uno', 'aria-pressed': unoArmed ? 'true' : 'false',
          onclick: () => on.pick({ unoArmed: !unoArmed }) }, t('uno'))
        : null,
    multi && canPlay
      ? h('button', { type: 'button', 'data-key': 'select', 'aria-pressed': selecting ? 'true' : 'false',
        onclick: () => on.pick({ selecting: !selecting, selected: [] }) }, t('select_several'))
      : null,
    selecting && selected.length
      ? h('button', { type: 'button', class: 'primary', 'data-key': 'play-selected', onclick: () => on.playSelected() }, t('play_selected'))
      : null,
  ];
  return h('div', { class: 'actions', role: 'group', 'aria-label': t('actions') }, buttons);
}

/**
 * Resigning asks twice: the second button says what it does.
 * @param {TableState} state
 * @param {Handlers} on
 */
function resignBar(state, on) {
  return h('div', { class: 'resign' }, state.resigning
    ? [h('span', {}, t('resign_confirm')), ' ',
      h('button', { type: 'button', class: 'danger', 'data-key': 'resign-yes', onclick: () => { on.resigning(false); on.call('resign'); } }, t('resign')),
      h('button', { type: 'button', class: 'link', 'data-key': 'resign-no', onclick: () => on.resigning(false) }, t('cancel'))]
    : h('button', { type: 'button', class: 'link', 'data-key': 'resign', onclick: () => on.resigning(true, '[data-key="resign-no"]') }, t('resign')));
}

/**
 * @param {TableState} state
 * @param {Handlers} on
 */
function handView(state, on) {
  const v = /** @type {GameView} */ (state.view);
  const { choice, selecting, selected } = state.picking;
  const hand = v.you?.hand ?? [];
  const pending = v.round?.pending;
  const drawn = pending?.type === 'play_drawn' && pending.seat === v.you?.seat ? pending.card : undefined;
  return h('section', { class: 'hand', 'data-region': 'hand', 'aria-label': t('your_hand'), tabindex: -1 },
    h('h2', { class: 'sr-only' }, t('your_hand')),
    h('div', { class: 'cards' }, hand.map((code, i) => {
      const key = `card-${i}-${code}`;
      const label = cardName(code);
      if (selecting) {
        const pressed = selected.includes(i);
        return cardEl(code, { tag: 'button', label, attrs: { type: 'button', 'data-key': key, 'aria-pressed': pressed ? 'true' : 'false',
          onclick: () => on.pick({ selected: pressed ? selected.filter((j) => j !== i) : [...selected, i] }) } });
      }
      const playable = playsOf(state, code).length > 0 && !choice;
      if (!playable) return cardEl(code, { label, attrs: { 'data-key': key } });
      const el = cardEl(code, { tag: 'button', label, attrs: { type: 'button', 'data-key': key, onclick: () => on.playCard(code) } });
      el.classList.add('playable');
      if (drawn === code) el.classList.add('drawn');
      return el;
    })));
}

/**
 * @param {TableState} state
 * @param {boolean} seated
 * @param {Handlers} on
 * @param {number} now
 */
function waitingPanel(state, seated, on, now) {
  const v = /** @type {GameView} */ (state.view);
  const me = state.me;
  const host = !!me && v.created_by === me.id;
  const code = v.invite_code;
  const level = h('select', { id: 'bot-level', 'aria-label': t('bot_level') },
    /** @type {BotLevel[]} */ (['random', 'basic', 'strong']).map((l) => h('option', { value: l, selected: l === 'basic' }, t(/** @type {'bot_basic'} */ (`bot_${l}`)))));
  const free = v.settings.max_players - v.seats.length;
  const invite = code ? `${location.origin}${location.pathname}#/join/${encodeURIComponent(code)}` : '';
  return h('section', { class: 'waiting panel' },
    h('p', {}, t('players_n', { n: v.seats.length, max: v.settings.max_players })),
    v.bots_fill_at ? h('p', { class: 'bots-fill muted', 'data-bots-fill-at': v.bots_fill_at }, botsFillText(v.bots_fill_at, now)) : null,
    h('ul', { class: 'seat-names' }, v.seats.map((s) => h('li', { 'data-seat': s.seat }, s.player.username, s.bot ? ` (${t('bot')})` : ''))),
    invite
      ? h('div', { class: 'invite' }, h('label', { for: 'invite-link' }, t('invite_link')),
        h('input', { id: 'invite-link', readonly: true, value: invite, onfocus: (e) => /** @type {HTMLInputElement} */ (e.target).select() }),
        h('button', { type: 'button', onclick: async (e) => {
          const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
          try { await navigator.clipboard.writeText(invite); button.textContent = t('copied'); } catch { /* no clipboard: the field is selectable */ }
        } }, t('copy')),
        h('p', { class: 'muted small' }, `${t('join_code')}: `, h('code', { 'data-invite-code': code }, code)))
      : null,
    h('div', { class: 'actions' },
      !seated ? h('button', { type: 'button', class: 'primary', onclick: () => on.call('join') }, t('join')) : null,
      host && free > 0 ? [level, h('button', { type: 'button', onclick: () => on.addBot(/** @type {BotLevel} */ (level.value)) }, t('add_bot'))] : null,
      host && v.seats.length >= 2 ? h('button', { type: 'button', class: 'primary', onclick: () => on.call('start') }, t('start')) : null,
      seated ? h('button', { type: 'button', class: 'link', onclick: () => on.leave() }, t('leave')) : null));
}

/**
 * @param {TableState} state
 * @param {boolean} seated
 * @param {Handlers} on
 */
function endPanel(state, seated, on) {
  const v = /** @type {GameView} */ (state.view);
  const mine = v.seats.find((s) => s.player.id === state.me?.id);
  const text = v.status === 'abandoned'
    ? t('game_abandoned')
    : v.winner_team !== undefined && v.winner_team !== null && v.settings.teams
      ? mine?.team === v.winner_team ? t('game_over_team_mine') : t('game_over_team', { n: v.winner_team + 1 })
      : v.winner_seat === null ? ''
        : mine?.seat === v.winner_seat ? t('game_over_mine') : t('game_over', { name: nameOf(v, v.winner_seat) });
  return h('section', { class: 'end panel', 'data-region': 'end' },
    h('h2', {}, text),
    h('div', { class: 'actions' },
      seated && v.status === 'finished' ? h('button', { type: 'button', class: 'primary', onclick: () => on.call('rematch') }, t('rematch')) : null,
      h('a', { class: 'button', href: `#/replay/${state.gameId}` }, t('replay')),
      v.status === 'finished' ? h('button', { type: 'button', onclick: () => on.download() }, t('export')) : null),
    v.deck_commitment && v.seed !== undefined && v.salt ? fairness(state, v.deck_commitment, v.seed, v.salt) : null);
}

/**
 * The deck commitment, as checked in the browser (actions.js `checkFairness`): sha256("seed:salt")
 * must be what the game showed from its first event on.
 * @param {TableState} state
 * @param {string} commitment
 * @param {number} seed
 * @param {string} salt
 */
function fairness(state, commitment, seed, salt) {
  const verified = state.fair?.verified ?? null;
  const verdict = verified === null ? '' : verified ? t('fair_ok') : t('fair_bad');
  return h('details', { class: 'fair small' }, h('summary', {}, t('fair_deck'), ' ',
    h('span', { class: 'verdict', 'aria-live': 'polite', 'data-verified': verified === null ? false : String(verified) }, verdict)),
  h('p', {}, `${t('deck_commitment')}: `, h('code', {}, commitment)),
  h('p', {}, 'seed: ', h('code', {}, state.fair?.seed ?? seed), ' · salt: ', h('code', {}, salt)));
}

/**
 * The last round's result: who went out, the viewer as "you".
 * @param {GameView} v
 * @param {TableState['me']} me
 */
function roundOver(v, me) {
  const last = v.last_round;
  if (!last) return '';
  if (last.winner_seat === null) return t('round_n', { n: last.number });
  return seatOf(v, last.winner_seat)?.player.id === me?.id
    ? t('round_over_mine', { n: last.number })
    : t('round_over', { n: last.number, name: nameOf(v, last.winner_seat) });
}

/**
 * Words after a colon start in lower case: "Wild: choose a colour".
 * @param {string} text
 */
const lower = (text) => text[0].toLowerCase() + text.slice(1);

/**
 * @param {GameView} v
 * @param {TableState['me']} me
 */
function lastRound(v, me) {
  const last = v.last_round;
  if (!last) return null;
  return h('section', { class: 'last-round panel', 'data-region': 'last-round' },
    h('h2', {}, roundOver(v, me)),
    h('ul', {}, v.seats.map((s) => {
      const cards = last.hands[String(s.seat)] ?? [];
      const points = last.points[s.seat] ?? 0;
      return h('li', { 'data-seat': s.seat },
        h('strong', {}, s.player.username), points ? h('span', { class: 'tag' }, t('points_n', { n: points })) : null,
        h('div', { class: 'mini-hand' }, cards.map((c) => cardEl(c, { label: cardName(c), small: true }))));
    })));
}
