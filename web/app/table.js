// The table: #/game/<id>. It renders the game view and the caller's legal actions as buttons,
// and re-reads the view whenever the stream says the game moved.

import { ApiError, act, addBot, call, gameCall, getGame, session } from './api.js';
import { cardBack, cardEl, h, render } from './dom.js';
import { cardName, countdown, currentLang, t } from './i18n.js';
import { follow } from './live.js';
import { go } from './router.js';
import { clockText, ruleSummary } from './rules.js';

/** @typedef {import('./api.js').GameView} GameView */
/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./api.js').SeatView} SeatView */
/** @typedef {import('./api.js').BotLevel} BotLevel */
/** @typedef {import('./api.js').Schemas['PlayAction']} PlayAction */
/** @typedef {import('./api.js').Schemas['ColorEnum']} Color */
/** @typedef {import('./api.js').Schemas['CardEnum']} Card */
/** @type {Color[]} */
const COLORS = ['red', 'yellow', 'green', 'blue'];

/**
 * What the person is in the middle of choosing for a card: its colour, then its target, then
 * (two_gives) a gift.
 * @typedef {{card: Card, options: PlayAction[], step: 'color' | 'target' | 'give', give: number[]}} Choice
 */

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function tablePage(root, gameId) {
  const me = session();
  /** @type {GameView | null} */
  let view = null;
  /** @type {Choice | null} */
  let choice = null;
  let unoArmed = false;
  let selecting = false;
  let resigning = false;
  /** @type {number[]} hand indexes, in the order picked */
  let selected = [];
  let busy = false;
  /** @type {Promise<string | null> | null} the finished game's seed, digit for digit */
  let seedDigits = null;
  /** @type {string | null} a selector to focus after the next draw */
  let focusNext = null;
  /** @type {import('./live.js').LinkState | 'off'} */
  let link = 'off';
  /** @type {{stop: () => void, kick: () => void} | null} */
  let stream = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let waitingPoll;
  let refreshing = false;
  let refreshAgain = false;

  const alert = h('p', { role: 'alert', class: 'error', id: 'table-alert' });
  // What a screen reader should hear when the game moves on: the turn coming to you, the end.
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const board = h('div', { class: 'board' });
  const table = h('div', { class: 'table', 'data-game-status': 'loading', 'data-version': 0 }, alert, announce, board);
  render(root, table);
  board.append(h('p', { class: 'muted' }, t('loading')));

  /** @param {unknown} error */
  const showError = (error) => {
    alert.textContent = error instanceof ApiError ? error.detail : String(error);
  };

  /** @param {GameView} next */
  const apply = (next) => {
    if (view && next.version < view.version && next.status === view.status) return;
    const moved = !view || next.version !== view.version || next.status !== view.status;
    const before = view;
    view = next;
    if (moved) announce.textContent = announcement(before, next);
    if (moved) {
      choice = null;
      selected = [];
      selecting = false;
      unoArmed = false;
    }
    connect();
    table.dataset.gameStatus = next.status;
    table.dataset.version = String(next.version);
    draw();
  };

  const refresh = async () => {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    try {
      do {
        refreshAgain = false;
        apply(await getGame(gameId));
      } while (refreshAgain);
    } catch (error) {
      showError(error);
    } finally {
      refreshing = false;
    }
  };

  /** Live updates while the game is on: the stream; while it waits for players: a poll. */
  const connect = () => {
    if (!view) return;
    if (view.status === 'active' && !stream) {
      stream = follow(gameId, view.version, (seq) => {
        if (!view || seq > view.version) void refresh();
      }, (state) => {
        link = state;
        const el = board.querySelector('.link-state');
        if (el) el.textContent = linkText();
      });
    } else if (view.status !== 'active' && stream) {
      stream.stop();
      stream = null;
      link = 'off';
    }
    if (view.status === 'waiting' && waitingPoll === undefined) {
      waitingPoll = setInterval(() => void refresh(), 2000);
    } else if (view.status !== 'waiting' && waitingPoll !== undefined) {
      clearInterval(waitingPoll);
      waitingPoll = undefined;
    }
  };

  const linkText = () => (link === 'live' ? t('live') : link === 'reconnecting' ? t('reconnecting') : link === 'polling' ? t('polling') : '');

  /**
   * Send one action; the answer is the new view.
   * @param {Action} action
   */
  const send = async (action) => {
    if (!view || busy) return;
    busy = true;
    alert.textContent = '';
    try {
      apply(await act(gameId, action, view.version));
    } catch (error) {
      showError(error);
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) void refresh();
    } finally {
      busy = false;
    }
  };

  /**
   * A game call (join, start, leave, resign, rematch, add bot).
   * @param {() => Promise<GameView>} request
   */
  const lobbyCall = async (request) => {
    alert.textContent = '';
    try {
      const next = await request();
      if (next.id !== gameId) go(`/game/${next.id}`);
      else apply(next);
    } catch (error) {
      showError(error);
    }
  };

  /**
   * @param {GameView | null} before
   * @param {GameView} after
   */
  const announcement = (before, after) => {
    const mine = (/** @type {GameView | null} */ v) => !!v && v.status === 'active' && !!v.you && v.round?.current_seat === v.you.seat;
    if (after.status === 'finished' && before?.status !== 'finished') {
      return after.winner_seat !== null ? t('game_over', { name: nameOf(after.winner_seat) }) : '';
    }
    if (after.last_round && before?.last_round?.number !== after.last_round.number && after.last_round.winner_seat !== null) {
      return t('round_over', { n: after.last_round.number, name: nameOf(after.last_round.winner_seat) });
    }
    if (mine(after) && !mine(before)) {
      const top = after.round?.top_card;
      return top ? `${t('your_turn')}: ${cardName(top)}` : t('your_turn');
    }
    return '';
  };

  /** @param {number} seat */
  const nameOf = (seat) => {
    const entry = view?.seats.find((s) => s.seat === seat);
    return entry ? entry.player.username : `#${seat}`;
  };

  // --- playing a card -------------------------------------------------------------------------

  /** @param {PlayAction[]} options */
  const withUno = (options) => {
    const said = options.filter((a) => a.uno);
    if (!said.length) return options;
    return unoArmed ? said : options.filter((a) => !a.uno);
  };

  /**
   * Go on with a card's choice: send it when one action is left, else ask for what varies.
   * @param {Choice} next
   */
  const advance = (next) => {
    const options = withUno(next.options);
    const colors = new Set(options.map((a) => a.color).filter(Boolean));
    const targets = new Set(options.map((a) => a.target));
    if (colors.size > 1) {
      choice = { ...next, step: 'color' };
    } else if (targets.size > 1) {
      choice = { ...next, step: 'target' };
    } else if (view?.settings.rules.two_gives && next.card.split('-')[1] === '2' && next.step !== 'give' && (view.you?.hand.length ?? 0) > 1) {
      choice = { ...next, step: 'give', give: [] };
    } else {
      choice = null;
      void send(options[0]);
      return;
    }
    focusNext = '.prompt button';
    draw();
  };

  /** @param {Card} card */
  const playCard = (card) => {
    const options = playsOf(card);
    if (options.length) advance({ card, options, step: 'color', give: [] });
  };

  /** @param {Card} card */
  const playsOf = (card) => /** @type {PlayAction[]} */ ((view?.you?.legal_actions ?? [])
    .filter((a) => a.action === 'play' && /** @type {PlayAction} */ (a).card === card));

  /** @param {number} index */
  const toggleSelected = (index) => {
    selected = selected.includes(index) ? selected.filter((i) => i !== index) : [...selected, index];
    draw();
  };

  const playSelected = () => {
    const hand = view?.you?.hand ?? [];
    const cards = selected.map((i) => hand[i]);
    if (cards.length === 1) {
      selecting = false;
      selected = [];
      playCard(cards[0]);
      return;
    }
    // The first card's complete plays carry what the set needs (a 7's target, a colour), so
    // the same choices are asked for; the set goes as `cards`.
    const uno = unoArmed && hand.length - cards.length === 1 ? { uno: true } : {};
    /** @type {Map<string, PlayAction>} */
    const variants = new Map();
    for (const entry of playsOf(cards[0])) {
      if (entry.uno) continue;
      const { card: _card, ...rest } = entry;
      variants.set(`${entry.color}/${entry.target}`, { ...rest, cards, ...uno });
    }
    const options = [...variants.values()];
    if (!options.length) {
      void send({ action: 'play', cards, ...uno });
      return;
    }
    selecting = false;
    selected = [];
    advance({ card: cards[0], options, step: 'color', give: [] });
  };

  // --- drawing --------------------------------------------------------------------------------

  const draw = () => {
    if (!view) return;
    const v = view;
    const you = v.you;
    const legal = you?.legal_actions ?? [];
    /** @param {string} kind */
    const has = (kind) => legal.some((a) => a.action === kind);
    const round = v.round;
    const seated = !!me && v.seats.some((s) => s.player.id === me.id);
    /** @type {(Node | null)[]} */
    const parts = [];

    parts.push(header(v));
    if (v.status === 'waiting') parts.push(waitingPanel(v, seated));
    if (round && (v.status === 'active' || v.status === 'finished')) {
      parts.push(seatsList(v, legal));
      parts.push(centre(v));
    } else if (v.status !== 'waiting') {
      parts.push(seatsList(v, legal));
    }
    if (v.status === 'active' && !you) parts.push(h('p', { class: 'muted' }, t('spectating')));
    if (v.status === 'active' && you) {
      parts.push(prompt(v));
      parts.push(actionBar(v, has));
      parts.push(handView(v));
    }
    if (v.status === 'active' && seated && v.seats.some((s) => s.player.id === me?.id && s.status === 'playing')) parts.push(resignBar());
    if (v.status === 'finished' || v.status === 'abandoned') parts.push(endPanel(v, seated));
    if (v.last_round) parts.push(lastRound(v));
    const myTurn = v.status === 'active' && !!you && round?.current_seat === you.seat;
    document.title = myTurn ? `▶ ${t('your_turn')} · UNO` : 'UNO';
    const hadFocus = board.contains(document.activeElement);
    render(board, ...parts);
    // Keyboard users keep their place: a new choice takes the focus, and a move that removed
    // the focused card hands it to the next thing to do.
    const target = focusNext ? board.querySelector(focusNext)
      : hadFocus && !board.contains(document.activeElement)
        ? board.querySelector('.prompt button, [data-region=hand] button, .actions button, [data-region=hand]')
        : null;
    focusNext = null;
    if (target instanceof HTMLElement) target.focus();
    tick();
  };

  /** @param {GameView} v */
  const header = (v) => {
    const round = v.round;
    const current = round ? v.seats.find((s) => s.seat === round.current_seat) : undefined;
    const yours = !!(current && me && current.player.id === me.id);
    const settings = v.settings;
    const rules = ruleSummary(settings.rules, currentLang() === 'pt' ? 1 : 0);
    const commitment = v.deck_commitment;
    return h('div', { class: 'table-head' },
      h('h1', {}, round ? t('round_n', { n: round.number }) : t('waiting_players')),
      v.status === 'active' && current
        ? h('p', { class: yours ? 'turn yours' : 'turn', 'data-turn': current.seat }, yours ? t('your_turn') : t('turn_of', { name: current.player.username }),
          ' ', h('span', { class: 'deadline', 'aria-live': 'off' }))
        : null,
      h('p', { class: 'muted small' }, `${clockText(settings)} · ${t('target_score')} ${settings.target_score}`,
        rules.length ? ` · ${rules.join(' · ')}` : '',
        ' ', h('span', { class: 'link-state' }, linkText())),
      commitment && v.status !== 'finished'
        ? h('p', { class: 'muted small commitment', title: commitment }, `${t('deck_commitment')}: `, h('code', {}, `${commitment.slice(0, 16)}…`))
        : null);
  };

  /**
   * @param {GameView} v
   * @param {Action[]} legal
   */
  const seatsList = (v, legal) => {
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
          h('a', { href: `#/players/${encodeURIComponent(s.player.username)}` }, s.player.username),
          mine ? h('span', { class: 'tag' }, t('you')) : null,
          s.bot ? h('span', { class: 'tag' }, `${t('bot')} ${t(/** @type {'bot_basic'} */ (`bot_${s.bot}`))}`) : null,
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
            onclick: () => void send(catchIt) }, t('catch'))
          : null);
      }));
  };

  /** @param {GameView} v */
  const centre = (v) => {
    const round = v.round;
    if (!round) return null;
    const dir = round.direction === 1 ? t('clockwise') : t('counterclockwise');
    return h('div', { class: 'centre' },
      h('div', { class: 'pile' }, cardBack(), h('span', { class: 'muted small' }, t('draw_pile_n', { n: round.draw_pile }))),
      h('div', { class: 'pile', 'data-region': 'discard', 'aria-label': t('discard_pile') },
        round.top_card ? cardEl(round.top_card, { label: `${t('discard_pile')}: ${cardName(round.top_card)}` }) : null),
      h('div', { class: 'state' },
        round.color
          ? h('p', { class: `color-chip c-${round.color}`, 'data-color': round.color }, t('current_color', { color: t(round.color) }))
          : null,
        h('p', { class: 'direction', 'data-direction': round.direction }, h('span', { 'aria-hidden': 'true', class: round.direction === 1 ? 'cw' : 'ccw' }, '↻'), ` ${t('direction')}: ${dir}`)));
  };

  /** @param {GameView} v */
  const prompt = (v) => {
    const pending = v.round?.pending;
    const yours = v.you && pending && pending.seat === v.you.seat;
    if (choice) {
      const c = choice;
      const options = withUno(c.options);
      if (c.step === 'color') {
        const colors = COLORS.filter((color) => options.some((a) => a.color === color));
        return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_color') },
          h('p', {}, `${cardName(c.card)}: ${t('choose_color')}`),
          h('div', { class: 'picker' }, colors.map((color) => h('button', { type: 'button', class: `swatch c-${color}`, 'data-key': `color-${color}`,
            onclick: () => advance({ ...c, options: options.filter((a) => a.color === color), step: 'target' }) }, t(color))),
          h('button', { type: 'button', class: 'link', onclick: () => { choice = null; draw(); } }, t('cancel'))));
      }
      if (c.step === 'target') {
        const withTarget = options.filter((a) => a.target !== undefined);
        const without = options.find((a) => a.target === undefined);
        return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_seat') },
          h('p', {}, `${cardName(c.card)}: ${t('choose_seat')}`),
          h('div', { class: 'picker' },
            withTarget.map((a) => h('button', { type: 'button', 'data-key': `target-${a.target}`, 'data-seat': a.target,
              onclick: () => { choice = null; void send(a); } }, nameOf(/** @type {number} */ (a.target)))),
            without ? h('button', { type: 'button', onclick: () => { choice = null; void send(without); } }, t('no_swap')) : null,
            h('button', { type: 'button', class: 'link', onclick: () => { choice = null; draw(); } }, t('cancel'))));
      }
      const hand = v.you?.hand ?? [];
      const base = options[0];
      const others = v.seats.filter((s) => s.seat !== v.you?.seat && s.status === 'playing');
      return h('div', { class: 'prompt', role: 'group', 'aria-label': t('give_cards') },
        h('p', {}, `${cardName(c.card)}: ${t('give_cards')}`),
        h('div', { class: 'picker' }, hand.map((code, i) => {
          if (i === hand.indexOf(c.card)) return null;
          const on = c.give.includes(i);
          return cardEl(code, { tag: 'button', label: cardName(code), small: true, attrs: {
            type: 'button', 'aria-pressed': on ? 'true' : 'false', 'data-key': `give-${i}`,
            disabled: !on && c.give.length >= 2,
            onclick: () => { choice = { ...c, give: on ? c.give.filter((j) => j !== i) : [...c.give, i] }; draw(); } } });
        })),
        c.give.length
          ? h('div', { class: 'picker' }, h('span', {}, t('give_to')), others.map((s) => h('button', { type: 'button', 'data-seat': s.seat,
            onclick: () => {
              const give = c.give.map((i) => hand[i]);
              /** @type {PlayAction} */
              const action = { ...base, target: s.seat, give };
              if (hand.length - 1 - give.length === 1) action.uno = true;
              else delete action.uno;
              choice = null;
              void send(action);
            } }, s.player.username)))
          : null,
        h('div', { class: 'picker' },
          h('button', { type: 'button', onclick: () => { choice = null; void send(base); } }, t('give_nothing')),
          h('button', { type: 'button', class: 'link', onclick: () => { choice = null; draw(); } }, t('cancel'))));
    }
    if (!pending || !yours) return unoArmed ? h('p', { class: 'prompt muted' }, t('uno_armed')) : null;
    if (pending.type === 'wild_draw4') {
      return h('p', { class: 'prompt' }, t('pending_wd4', { name: nameOf(pending.from_seat), n: pending.amount }));
    }
    if (pending.type === 'draw_penalty') return h('p', { class: 'prompt' }, t('pending_penalty', { n: pending.amount }));
    if (pending.type === 'play_drawn' && pending.card) return h('p', { class: 'prompt' }, t('pending_drawn', { card: cardName(pending.card) }));
    if (pending.type === 'color') {
      return h('div', { class: 'prompt', role: 'group', 'aria-label': t('choose_color') }, h('p', {}, t('pending_color')),
        h('div', { class: 'picker' }, COLORS.map((color) => {
          const action = v.you?.legal_actions.find((a) => a.action === 'color' && a.color === color);
          return action ? h('button', { type: 'button', class: `swatch c-${color}`, 'data-key': `color-${color}`, onclick: () => void send(action) }, t(color)) : null;
        })));
    }
    return null;
  };

  /**
   * @param {GameView} v
   * @param {(kind: string) => boolean} has
   */
  const actionBar = (v, has) => {
    const legal = v.you?.legal_actions ?? [];
    const hand = v.you?.hand ?? [];
    const canPlay = legal.some((a) => a.action === 'play');
    const unoVariant = legal.some((a) => a.action === 'play' && /** @type {PlayAction} */ (a).uno);
    const multi = v.settings.rules.multi_play || v.settings.rules.color_runs;
    const selectionLeavesOne = selecting && selected.length > 0 && hand.length - selected.length === 1;
    /** @param {Action} action */
    const bySend = (action) => () => void send(action);
    const drawAction = legal.find((a) => a.action === 'draw');
    const buttons = [
      drawAction ? h('button', { type: 'button', class: 'primary', 'data-key': 'draw', onclick: bySend(drawAction) }, t('draw')) : null,
      has('pass') ? h('button', { type: 'button', 'data-key': 'pass', onclick: bySend({ action: 'pass' }) }, t('pass')) : null,
      has('challenge') ? h('button', { type: 'button', 'data-key': 'challenge', onclick: bySend({ action: 'challenge' }) }, t('challenge')) : null,
      has('accept') ? h('button', { type: 'button', 'data-key': 'accept', onclick: bySend({ action: 'accept' }) }, t('accept')) : null,
      has('uno')
        ? h('button', { type: 'button', class: 'uno', 'data-key': 'uno', onclick: bySend({ action: 'uno' }) }, t('uno'))
        : (unoVariant || selectionLeavesOne)
          ? h('button', { type: 'button', class: 'uno', 'data-key': 'uno', 'aria-pressed': unoArmed ? 'true' : 'false',
            onclick: () => { unoArmed = !unoArmed; draw(); } }, t('uno'))
          : null,
      multi && canPlay
        ? h('button', { type: 'button', 'data-key': 'select', 'aria-pressed': selecting ? 'true' : 'false',
          onclick: () => { selecting = !selecting; selected = []; draw(); } }, t('select_several'))
        : null,
      selecting && selected.length
        ? h('button', { type: 'button', class: 'primary', 'data-key': 'play-selected', onclick: playSelected }, t('play_selected'))
        : null,
    ];
    return h('div', { class: 'actions', role: 'group', 'aria-label': 'Actions' }, buttons);
  };

  /** Resigning asks twice: the second button says what it does. */
  const resignBar = () => h('div', { class: 'resign' }, resigning
    ? [h('span', {}, t('resign_confirm')), ' ',
      h('button', { type: 'button', class: 'danger', 'data-key': 'resign-yes', onclick: () => { resigning = false; void lobbyCall(() => gameCall(gameId, 'resign')); } }, t('resign')),
      h('button', { type: 'button', class: 'link', 'data-key': 'resign-no', onclick: () => { resigning = false; draw(); } }, t('cancel'))]
    : h('button', { type: 'button', class: 'link', 'data-key': 'resign', onclick: () => { resigning = true; focusNext = '[data-key="resign-no"]'; draw(); } }, t('resign')));

  /** @param {GameView} v */
  const handView = (v) => {
    const hand = v.you?.hand ?? [];
    const pending = v.round?.pending;
    const drawn = pending?.type === 'play_drawn' && pending.seat === v.you?.seat ? pending.card : undefined;
    return h('section', { class: 'hand', 'data-region': 'hand', 'aria-label': t('your_hand'), tabindex: -1 },
      h('h2', { class: 'sr-only' }, t('your_hand')),
      h('div', { class: 'cards' }, hand.map((code, i) => {
        const key = `card-${i}-${code}`;
        const label = cardName(code);
        if (selecting) {
          const on = selected.includes(i);
          return cardEl(code, { tag: 'button', label, attrs: { type: 'button', 'data-key': key, 'aria-pressed': on ? 'true' : 'false',
            onclick: () => toggleSelected(i) } });
        }
        const playable = playsOf(code).length > 0 && !choice;
        if (!playable) return cardEl(code, { label, attrs: { 'data-key': key } });
        const el = cardEl(code, { tag: 'button', label, attrs: { type: 'button', 'data-key': key, onclick: () => playCard(code) } });
        el.classList.add('playable');
        if (drawn === code) el.classList.add('drawn');
        return el;
      })));
  };

  /**
   * @param {GameView} v
   * @param {boolean} seated
   */
  const waitingPanel = (v, seated) => {
    const host = !!me && v.created_by === me.id;
    const code = v.invite_code;
    const level = h('select', { id: 'bot-level', 'aria-label': t('bot_level') },
      /** @type {BotLevel[]} */ (['random', 'basic', 'strong']).map((l) => h('option', { value: l, selected: l === 'basic' }, t(/** @type {'bot_basic'} */ (`bot_${l}`)))));
    const free = v.settings.max_players - v.seats.length;
    const invite = code ? `${location.origin}${location.pathname}#/join/${encodeURIComponent(code)}` : '';
    return h('section', { class: 'waiting panel' },
      h('p', {}, t('players_n', { n: v.seats.length, max: v.settings.max_players })),
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
        !seated ? h('button', { type: 'button', class: 'primary', onclick: () => void lobbyCall(() => gameCall(gameId, 'join')) }, t('join')) : null,
        host && free > 0 ? [level, h('button', { type: 'button', onclick: () => void lobbyCall(() => addBot(gameId, /** @type {BotLevel} */ (level.value))) }, t('add_bot'))] : null,
        host && v.seats.length >= 2 ? h('button', { type: 'button', class: 'primary', onclick: () => void lobbyCall(() => gameCall(gameId, 'start')) }, t('start')) : null,
        seated ? h('button', { type: 'button', class: 'link', onclick: async () => {
          await lobbyCall(() => gameCall(gameId, 'leave'));
          if (!alert.textContent) go('/');
        } }, t('leave')) : null));
  };

  /**
   * @param {GameView} v
   * @param {boolean} seated
   */
  const endPanel = (v, seated) => {
    const text = v.status === 'abandoned'
      ? t('game_abandoned')
      : v.winner_team !== undefined && v.winner_team !== null && v.settings.teams
        ? t('game_over_team', { n: v.winner_team + 1 })
        : v.winner_seat !== null ? t('game_over', { name: nameOf(v.winner_seat) }) : '';
    return h('section', { class: 'end panel', 'data-region': 'end' },
      h('h2', {}, text),
      h('div', { class: 'actions' },
        seated && v.status === 'finished' ? h('button', { type: 'button', class: 'primary', onclick: () => void lobbyCall(() => gameCall(gameId, 'rematch')) }, t('rematch')) : null,
        h('a', { class: 'button', href: `#/replay/${gameId}` }, t('replay')),
        v.status === 'finished' ? h('button', { type: 'button', onclick: () => void download() }, t('export')) : null),
      v.deck_commitment && v.seed !== undefined && v.salt ? fairness(v.deck_commitment, v.seed, v.salt) : null);
  };

  /** The finished game as one JSON document (the export), saved as a file. */
  const download = async () => {
    try {
      const doc = await call('GET', `games/${encodeURIComponent(gameId)}/export/`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
      const link = h('a', { href: url, download: `uno-${gameId}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (error) {
      showError(error);
    }
  };

  /**
   * The deck commitment checked in the browser: sha256("seed:salt") must be what the game showed
   * from its first event on.
   * @param {string} commitment
   * @param {number} seed
   * @param {string} salt
   */
  const fairness = (commitment, seed, salt) => {
    const result = h('span', { class: 'verdict', 'aria-live': 'polite' });
    const seedText = h('code', {}, seed);
    void (async () => {
      // A seed is 64 bits: past 2^53 a JavaScript number rounds it. Its digits come from the
      // JSON text itself (JSON.parse's source access), or there is no check.
      seedDigits ??= Number.isSafeInteger(seed) ? Promise.resolve(String(seed)) : (async () => {
        /** @type {string | null} */
        let digits = null;
        await call('GET', `games/${encodeURIComponent(gameId)}/`, {
          reviver(key, value, context) {
            if (key === 'seed' && context?.source && this && typeof this === 'object' && 'deck_commitment' in this) digits = context.source;
            return value;
          },
        }).catch(() => {});
        return digits;
      })();
      const exact = await seedDigits;
      if (!exact || !crypto.subtle) return;
      seedText.textContent = exact;
      const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${exact}:${salt}`));
      const hex = Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join('');
      result.textContent = hex === commitment ? t('fair_ok') : t('fair_bad');
      result.dataset.verified = String(hex === commitment);
    })();
    return h('details', { class: 'fair small' }, h('summary', {}, t('fair_deck'), ' ', result),
      h('p', {}, `${t('deck_commitment')}: `, h('code', {}, commitment)),
      h('p', {}, 'seed: ', seedText, ' · salt: ', h('code', {}, salt)));
  };

  /** @param {GameView} v */
  const lastRound = (v) => {
    const last = v.last_round;
    if (!last) return null;
    return h('section', { class: 'last-round panel', 'data-region': 'last-round' },
      h('h2', {}, last.winner_seat !== null ? t('round_over', { n: last.number, name: nameOf(last.winner_seat) }) : t('round_n', { n: last.number })),
      h('ul', {}, v.seats.map((s) => {
        const cards = last.hands[String(s.seat)] ?? [];
        const points = last.points[s.seat] ?? 0;
        return h('li', { 'data-seat': s.seat },
          h('strong', {}, s.player.username), points ? h('span', { class: 'tag' }, t('points_n', { n: points })) : null,
          h('div', { class: 'mini-hand' }, cards.map((c) => cardEl(c, { label: cardName(c), small: true }))));
      })));
  };

  /** The countdown of the turn's deadline (or the running bank), once a second. */
  const tick = () => {
    const el = board.querySelector('.deadline');
    const round = view?.round;
    if (!el || !round) return;
    const until = round.bank_runs_out_at ?? round.turn_deadline;
    el.textContent = until ? t('deadline', { t: countdown((Date.parse(until) - Date.now()) / 1000) }) : '';
  };
  const ticker = setInterval(tick, 1000);
  board.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && choice) {
      choice = null;
      focusNext = '[data-region=hand] button, [data-region=hand]';
      draw();
    }
  });
  const onOnline = () => stream?.kick();
  addEventListener('online', onOnline);
  const onVisible = () => { if (document.visibilityState === 'visible') void refresh(); };
  document.addEventListener('visibilitychange', onVisible);

  await refresh();
  return () => {
    document.title = 'UNO';
    stream?.stop();
    clearInterval(ticker);
    if (waitingPoll !== undefined) clearInterval(waitingPoll);
    removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
