// The lobby: your games, the open games, creating a game with every setting, quick match, and
// joining by invite code (#/join/<code>).

import { ApiError, call, createGame, gameCall, listGames, othersAt, playAgainstBots, session } from './api.js';
import { h, render } from './dom.js';
import { currentLang, duration, fieldErrors, fill, formatDate, formatList, refusal, t, tr } from './i18n.js';
import { go } from './router.js';
import { GROUPS, RULE_HELP } from './rulebook.js';
import { RULES, RULE_NAMES, clockText, ruleSummary } from './rules.js';

/** @type {Record<string, [string, string]>} words of the lobby only (i18n.js: those pages share) */
const WORDS = {
  play_now: ['Play now', 'Jogar já'],
  play_bots: ['Play against bots', 'Jogar contra bots'],
  play_bots_help: ['You and three bots, the official rules: the game starts at once.', 'Contra três bots, com as regras oficiais: o jogo começa já.'],
  your_games: ['Your games', 'Os seus jogos'],
  open_games: ['Open games', 'Jogos abertos'],
  finished_games: ['Finished games', 'Jogos terminados'],
  no_games: ['None yet.', 'Nenhum ainda.'],
  no_open_games: ['No open games. Create one!', 'Nenhum jogo aberto. Crie um!'],
  join_by_code: ['Join by code', 'Entrar com código'],
  // how a row of "Your games" says its game waits for players
  waiting: ['Waiting for players', 'À espera de jogadores'],
  // how a row of "Finished games" says who won, who else sat in, and when the game ended
  you_won: ['You won', 'Ganhou'],
  your_team_won: ['Your team won', 'A sua equipa ganhou'],
  won_by: ['Won by {name}', 'Vitória de {name}'],
  with: ['with {names}', 'com {names}'],
  ended: ['ended {date}', 'terminou a {date}'],
  rules_official: ['official rules', 'regras oficiais'],
  // quick match
  quick_match: ['Quick match', 'Jogo rápido'],
  quick_match_help: [
    'Join the oldest open game with these players and rules, or open one; bots fill the free seats after the wait.',
    'Junta-se ao jogo aberto mais antigo com estes jogadores e regras, ou abre um; bots ocupam os lugares livres após a espera.',
  ],
  qm_players: ['Players wanted', 'Jogadores pretendidos'],
  // the create form
  new_game: ['New game', 'Novo jogo'],
  create_game: ['Create game', 'Criar jogo'],
  no_teams: ['No teams', 'Sem equipas'],
  teams_n: ['{n} teams', '{n} equipas'],
  bank_initial: ['Bank: initial (hours)', 'Banco: inicial (horas)'],
  bank_increment: ['Bank: added per move (hours)', 'Banco: acréscimo por jogada (horas)'],
  bank_max: ['Bank: maximum (hours)', 'Banco: máximo (horas)'],
  house_rules: ['House rules', 'Regras da casa'],
  scoring_winner: ['Winner scores the others\' cards (official)', 'O vencedor soma as cartas dos outros (oficial)'],
  scoring_penalty: ['Each scores their own cards; lowest wins', 'Cada um soma as suas cartas; ganha o mais baixo'],
  private_game: ['Private game (invite link only)', 'Jogo privado (só com convite)'],
  spectator_chat: ['Spectators may chat', 'Espectadores podem conversar'],
};

/**
 * The create form's words for a refused setting (the body's `fields`, beside the setting): a
 * check by its code (i18n.js's CHECKS has the rest; `{with}`: the settings named), a house rule
 * by its name.
 * @type {Record<string, [string, string]>}
 */
const FIELD_WORDS = {
  teams_players: ['{teams} teams need a multiple of {teams} players, 2 or more a team (not {players})', '{teams} equipas precisam de um múltiplo de {teams} jogadores, 2 ou mais por equipa (não {players})'],
  combination: ['does not go with {with}', 'não se combina com {with}'],
  needs: ['needs {with} on too', 'precisa também de {with}'],
  max_items: ['at most {n}: you take a seat too', 'no máximo {n}: também ocupa um lugar'],
  ...Object.fromEntries(RULE_NAMES.map((name) => [name, RULES[name].label])),
};

/**
 * A refusal whose checks name other settings (`with`: `["stacking"]`) with their labels.
 * @param {unknown} error
 */
function named(error) {
  const { code, detail, body } = /** @type {{code?: string, detail?: string, body?: {fields?: Record<string, {with?: string[]}[]>}}} */ (Object(error));
  if (!body?.fields) return error;
  /** @param {string} name */
  const label = (name) => (name === 'teams' ? t('teams') : name in RULES ? tr(RULES[/** @type {import('./rules.js').RuleName} */ (name)].label) : name);
  const fields = Object.fromEntries(Object.entries(body.fields).map(([path, checks]) => [path,
    (Array.isArray(checks) ? checks : []).map((check) => (check.with ? { ...check, with: formatList(check.with.map(label)) } : check))]));
  return { code, detail, body: { ...body, fields } };
}

/** @typedef {import('./api.js').GameSummary} GameSummary */
/** @typedef {import('./api.js').GameCreate} GameCreate */
/** @typedef {import('./api.js').GameView} GameView */
/** @typedef {import('./api.js').BotLevel} BotLevel */
/** @typedef {import('./rules.js').RulesRequest} RulesRequest */
const TIMEOUTS = [15, 30, 60, 300, 3600, 86400, 259200];
/** @type {BotLevel[]} */
const BOT_LEVELS = ['random', 'basic', 'strong'];

/**
 * A finished game's row: who won, who else sat in, and when it ended: "Won by ana · with bea ·
 * ended 4 December", "You won · with bea · …"; with teams, the winning team's players ("Won by
 * ana and carl", "Your team won").
 * @param {GameSummary} game
 */
function finishedText(game) {
  const me = session();
  const teams = game.settings.teams;
  const winners = teams
    ? game.winner_team === null ? [] : game.seats.filter((s) => s.seat % teams === game.winner_team)
    : game.seats.filter((s) => s.seat === game.winner_seat);
  const iWon = winners.some((s) => s.player.id === me?.id);
  const others = game.seats.filter((s) => s.player.id !== me?.id && (iWon || !winners.includes(s))).map((s) => s.player.username).join(', ');
  const parts = iWon ? [tr(teams ? WORDS.your_team_won : WORDS.you_won)]
    : winners.length ? [fill(tr(WORDS.won_by), { name: formatList(winners.map((s) => s.player.username)) })] : [];
  if (others) parts.push(winners.length ? fill(tr(WORDS.with), { names: others }) : t('with_players', { names: others }));
  return parts;
}

/** @param {GameSummary['settings']} settings */
function rulesText(settings) {
  const list = ruleSummary(settings.rules, currentLang() === 'pt' ? 1 : 0);
  if (settings.teams) list.unshift(fill(tr(WORDS.teams_n), { n: settings.teams }));
  return list.length ? list.join(' · ') : tr(WORDS.rules_official);
}

/**
 * One game in a list.
 * @param {GameSummary} game
 * @param {'join' | 'open' | 'replay'} mode
 */
function gameItem(game, mode) {
  const names = game.seats.map((seat) => seat.player.username).join(', ');
  const alert = h('span', { role: 'alert', class: 'error' });
  const action = mode === 'join'
    ? h('button', { type: 'button', class: 'primary', 'data-key': `join-${game.id}`, onclick: async () => {
      try {
        await gameCall(game.id, 'join');
        go(`/game/${game.id}`);
      } catch (error) {
        alert.textContent = refusal(error);
      }
    } }, t('join'))
    : h('a', { class: 'button', 'data-key': `${mode}-${game.id}`, href: mode === 'open' ? `#/game/${game.id}` : `#/replay/${game.id}` },
      mode === 'open' ? t('open') : t('replay'));
  const me = session();
  const myTurn = me && game.current_seat !== null && game.seats.find((s) => s.seat === game.current_seat)?.player.id === me.id;
  const seated = t('players_n', { n: game.seats.length, max: game.settings.max_players });
  // Your games: the others by name (never the viewer), and where the game stands.
  const others = othersAt(game).join(', ');
  const withOthers = others ? t('with_players', { names: others }) : '';
  const toPlay = game.seats.find((s) => s.seat === game.current_seat)?.player.username;
  const head = mode === 'replay'
    ? [h('strong', {}, finishedText(game).join(' · ')), ' · ',
      h('time', { datetime: game.finished_at ?? game.created_at }, fill(tr(WORDS.ended), { date: formatDate(game.finished_at ?? game.created_at, 'day') }))]
    : mode !== 'open' ? [h('strong', {}, seated), h('div', {}, names)]
    : game.status === 'waiting' ? [h('strong', {}, tr(WORDS.waiting)), ' ', h('span', { class: 'tag waiting' }, seated), withOthers ? h('div', {}, withOthers) : null]
      : [h('strong', {}, withOthers), ' ', myTurn ? h('span', { class: 'tag turn' }, t('your_turn'))
        : toPlay ? h('span', { class: 'tag' }, t('turn_of', { name: toPlay })) : null];
  return h('li', { class: 'game-item', 'data-game-id': game.id, 'data-status': game.status },
    h('div', { class: 'game-info' },
      head,
      h('div', { class: 'muted small' }, `${clockText(game.settings)} · ${t('target_score')} ${game.settings.target_score} · ${rulesText(game.settings)}`)),
    action, alert);
}

/**
 * @param {HTMLElement} list
 * @param {Promise<import('./api.js').GamePage>} page
 * @param {'join' | 'open' | 'replay'} mode
 * @param {(game: GameSummary) => boolean} [keep]
 */
async function fillList(list, page, mode, keep = () => true) {
  try {
    const { results } = await page;
    const games = results.filter(keep);
    render(list, games.length ? games.map((game) => gameItem(game, mode)) : h('li', { class: 'muted' }, mode === 'join' ? tr(WORDS.no_open_games) : tr(WORDS.no_games)));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network') {
      render(list, h('li', { class: 'muted' }, refusal(error))); // offline.js says why
      return;
    }
    render(list, h('li', { role: 'alert', class: 'error' }, refusal(error)));
  }
}

/** @param {HTMLElement} root */
export function lobbyPage(root) {
  const me = session();
  const mine = h('ul', { class: 'game-list', 'aria-label': tr(WORDS.your_games) }, h('li', { class: 'muted' }, t('loading')));
  const open = h('ul', { class: 'game-list', 'aria-label': tr(WORDS.open_games) }, h('li', { class: 'muted' }, t('loading')));
  const finished = h('ul', { class: 'game-list', 'aria-label': tr(WORDS.finished_games) });
  render(root,
    h('div', { class: 'lobby' },
      h('h1', { class: 'sr-only' }, t('nav_lobby')),
      playNow(),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.your_games)), mine),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.open_games)), open, joinByCode()),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.quick_match)), quickMatch()),
      h('section', { class: 'panel wide' }, h('h2', {}, tr(WORDS.new_game)), createForm()),
      h('section', { class: 'panel' }, h('h2', {}, tr(WORDS.finished_games)), finished)));
  const lists = () => {
    void fillList(mine, listGames({ mine: true, page_size: 50 }), 'open', (g) => g.status === 'waiting' || g.status === 'active');
    void fillList(open, listGames({ status: 'waiting', page_size: 50 }), 'join', (g) => !g.seats.some((s) => s.player.id === me?.id));
  };
  lists();
  void fillList(finished, listGames({ mine: true, status: 'finished', page_size: 20 }), 'replay');
  // The open games change as people come and go: read them again now and then, and at once
  // when a notification says something happened (a player joined, a game started).
  const timer = setInterval(() => { if (document.visibilityState === 'visible') lists(); }, 10000);
  addEventListener('uno:notification', lists);
  return () => {
    clearInterval(timer);
    removeEventListener('uno:notification', lists);
  };
}

/** Play now: one click, a game against three bots, and its table. */
function playNow() {
  const alert = h('p', { role: 'alert', class: 'error' });
  const button = h('button', { type: 'button', class: 'primary big', 'aria-describedby': 'play-now-help', onclick: async () => {
    alert.textContent = '';
    button.disabled = true;
    try {
      const game = await playAgainstBots();
      go(`/game/${game.id}`);
    } catch (error) {
      alert.textContent = refusal(error);
      button.disabled = false;
    }
  } }, tr(WORDS.play_bots));
  return h('section', { class: 'panel wide play-now', 'aria-labelledby': 'play-now-title' },
    h('h2', { id: 'play-now-title' }, tr(WORDS.play_now)),
    h('p', { id: 'play-now-help', class: 'muted' }, tr(WORDS.play_bots_help)),
    button, alert);
}

/**
 * The lobby's invite code: a code the server refuses is said here, the code kept to be mended (it
 * went to #/join/<code>, whose refusal was a page of its own, the code typed lost).
 */
function joinByCode() {
  const input = h('input', { id: 'join-code', name: 'code', autocomplete: 'off', required: true });
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit' }, tr(WORDS.join_by_code)));
  const alert = h('p', { role: 'alert', class: 'error', id: 'join-code-alert' });
  return h('div', {},
    h('form', { class: 'inline', onsubmit: async (event) => {
      event.preventDefault();
      alert.textContent = '';
      button.disabled = true;
      try {
        go(`/game/${(await takeSeatByCode(input.value.trim())).id}`);
      } catch (error) {
        alert.textContent = refusal(error);
        button.disabled = false;
      }
    } }, h('label', { for: 'join-code' }, t('join_code')), input, button),
    alert);
}

/**
 * @param {string} code
 * @returns {Promise<GameView>}
 */
const takeSeatByCode = (code) => call('POST', 'games/join-by-code/', { body: { code } });

function quickMatch() {
  const players = h('input', { id: 'qm-players', type: 'number', min: 2, max: 10, value: 2, required: true });
  const wait = h('input', { id: 'qm-wait', type: 'number', min: 0, max: 3600, value: 30 });
  const alert = h('p', { role: 'alert', class: 'error' });
  const button = h('button', { type: 'submit', class: 'primary' }, tr(WORDS.quick_match));
  return h('form', { class: 'stack', onsubmit: async (event) => {
    event.preventDefault();
    alert.textContent = '';
    button.disabled = true;
    try {
      /** @type {import('./api.js').Schemas['MatchmakingRequest']} */
      const body = { players: Number(players.value), rules: {} };
      if (wait.value !== '') body.fill_with_bots_after = Number(wait.value);
      /** @type {GameView} */
      const game = await call('POST', 'matchmaking/', { body });
      go(`/game/${game.id}`);
    } catch (error) {
      alert.textContent = refusal(error);
      button.disabled = false;
    }
  } },
  h('p', { class: 'muted small' }, tr(WORDS.quick_match_help)),
  h('div', { class: 'row' },
    field('qm-players', tr(WORDS.qm_players), players),
    field('qm-wait', t('fill_with_bots_after'), wait)),
  alert, button);
}

/**
 * A labelled field: `<label>` then the control, with an optional hint under it.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [hint]
 */
function field(id, label, control, hint) {
  control.id = id;
  if (hint) control.setAttribute('aria-describedby', `${id}-hint`);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control,
    hint ? h('small', { id: `${id}-hint`, class: 'muted' }, hint) : null);
}

/**
 * @param {string[]} values
 * @param {(value: string) => string} label
 * @param {string} selected
 */
function select(values, label, selected) {
  return h('select', {}, values.map((value) => h('option', { value, selected: value === selected }, label(value))));
}

/** Every setting of a new game and every house rule, grouped, each with its explanation. */
function createForm() {
  const players = h('input', { type: 'number', min: 2, max: 10, value: 4, required: true });
  const timeout = select(TIMEOUTS.map(String), (v) => duration(Number(v)), '86400');
  const clock = select(['move', 'bank'], (v) => (v === 'bank' ? t('clock_bank') : t('clock_move')), 'move');
  const bankInitial = h('input', { type: 'number', min: 1, value: 72 });
  const bankIncrement = h('input', { type: 'number', min: 0, value: 24 });
  const bankMax = h('input', { type: 'number', min: 1, value: 168 });
  const bankFields = h('div', { class: 'row', hidden: true },
    field('c-bank-initial', tr(WORDS.bank_initial), bankInitial),
    field('c-bank-increment', tr(WORDS.bank_increment), bankIncrement),
    field('c-bank-max', tr(WORDS.bank_max), bankMax));
  clock.addEventListener('change', () => {
    bankFields.hidden = clock.value !== 'bank';
    timeout.disabled = clock.value === 'bank';
  });
  const target = h('input', { type: 'number', min: 1, max: 1000000, value: 500, required: true });
  const maxTimeouts = h('input', { type: 'number', min: 1, max: 100, value: 3, required: true });
  const teams = select(['0', '2', '3'], (v) => (v === '0' ? tr(WORDS.no_teams) : fill(tr(WORDS.teams_n), { n: v })), '0');
  const bots = h('input', { type: 'number', min: 0, max: 9, value: 0 });
  const botLevel = select(BOT_LEVELS, (v) => t(/** @type {'bot_basic'} */ (`bot_${v}`)), 'basic');
  const takeover = h('input', { type: 'checkbox', id: 'c-takeover' });
  const isPrivate = h('input', { type: 'checkbox', id: 'c-private' });
  const spectatorChat = h('input', { type: 'checkbox', id: 'c-spectator-chat' });

  /** @type {Map<string, HTMLInputElement | HTMLSelectElement>} */
  const ruleInputs = new Map();
  const groups = Object.entries(GROUPS).map(([group, name]) => h('fieldset', { class: 'rules-group' },
    h('legend', {}, tr(name)),
    RULE_NAMES.filter((rule) => RULE_HELP[rule].group === group).map((rule) => {
      const info = { ...RULES[rule], ...RULE_HELP[rule] };
      const id = `rule-${rule}`;
      const hint = h('small', { id: `${id}-hint`, class: 'muted' }, tr(info.text));
      if (rule === 'scoring') {
        const control = select(['winner', 'penalty'], (v) => (v === 'winner' ? tr(WORDS.scoring_winner) : tr(WORDS.scoring_penalty)), 'winner');
        control.id = id;
        control.setAttribute('aria-describedby', hint.id);
        ruleInputs.set(rule, control);
        return h('div', { class: 'field' }, h('label', { for: id }, tr(info.label)), control, hint);
      }
      if (info.fallback !== undefined) {
        const control = h('input', { id, type: 'number', min: info.min, max: info.max, value: info.fallback, 'aria-describedby': hint.id });
        ruleInputs.set(rule, control);
        return h('div', { class: 'field' }, h('label', { for: id }, tr(info.label)), control, hint);
      }
      const control = h('input', { id, type: 'checkbox', 'aria-describedby': hint.id, 'data-rule': rule });
      ruleInputs.set(rule, control);
      return h('div', { class: 'check' }, control, h('label', { for: id }, tr(info.label)), hint);
    })));

  const alert = h('p', { role: 'alert', class: 'error' });
  const submit = h('button', { type: 'submit', class: 'primary' }, tr(WORDS.create_game));
  // A refused setting is said beside its control too (by its path in the body), which is marked
  // invalid and described by it; the first on the page is focused (its house rules unfolded).
  /** @type {Map<string, HTMLElement>} */
  const controls = new Map(/** @type {[string, HTMLElement][]} */ ([['max_players', players], ['target_score', target], ['teams', teams], ['turn_timeout', timeout],
    ['max_timeouts', maxTimeouts], ['bots', bots], ['clock.initial', bankInitial], ['clock.increment', bankIncrement], ['clock.max', bankMax]]));
  for (const [name, input] of ruleInputs) controls.set(`rules.${name}`, input);
  /** @type {(() => void)[]} */
  let marks = [];
  /** @param {unknown} error */
  const mark = (error) => {
    marks.forEach((unmark) => unmark());
    marks = [];
    /** @type {HTMLElement | null} */
    let first = null;
    for (const [path, , said] of fieldErrors(/** @type {{body?: {fields?: unknown}}} */ (Object(error)).body?.fields, FIELD_WORDS) ?? []) {
      const control = controls.get(path);
      if (!control) continue;
      const note = h('p', { class: 'error', id: `${control.id}-error` }, said[0].toUpperCase() + said.slice(1));
      const described = control.getAttribute('aria-describedby');
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', described ? `${described} ${note.id}` : note.id);
      control.parentElement?.append(note);
      marks.push(() => {
        note.remove();
        control.removeAttribute('aria-invalid');
        if (described) control.setAttribute('aria-describedby', described);
        else control.removeAttribute('aria-describedby');
      });
      if (!first || control.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) first = control;
    }
    const group = first?.closest('details');
    if (group) group.open = true;
    first?.focus();
  };
  return h('form', { class: 'create', onsubmit: async (event) => {
    event.preventDefault();
    alert.textContent = '';
    mark(null);
    /** @type {Record<string, unknown>} */
    const rules = {};
    for (const [name, input] of ruleInputs) {
      if (input instanceof HTMLInputElement && input.type === 'checkbox') {
        if (input.checked) rules[name] = true;
      } else if (input instanceof HTMLInputElement) {
        if (Number(input.value) !== RULES[/** @type {import('./rules.js').RuleName} */ (name)].fallback) rules[name] = Number(input.value);
      } else if (input.value !== 'winner') {
        rules[name] = input.value;
      }
    }
    /** @type {GameCreate} */
    const body = {
      max_players: Number(players.value),
      target_score: Number(target.value),
      max_timeouts: Number(maxTimeouts.value),
      rules: /** @type {RulesRequest} */ (rules),
    };
    if (clock.value === 'bank') {
      body.clock = { type: 'bank', initial: Number(bankInitial.value) * 3600, increment: Number(bankIncrement.value) * 3600, max: Number(bankMax.value) * 3600 };
    } else {
      body.turn_timeout = Number(timeout.value);
    }
    if (teams.value !== '0') body.teams = Number(teams.value);
    const botCount = Number(bots.value);
    if (botCount > 0) body.bots = Array.from({ length: botCount }, () => /** @type {BotLevel} */ (botLevel.value));
    if (takeover.checked) body.bot_takeover = true;
    if (isPrivate.checked) body.private = true;
    if (spectatorChat.checked) body.spectator_chat = true;
    submit.disabled = true;
    try {
      const game = await createGame(body);
      go(`/game/${game.id}`);
    } catch (error) {
      const refused = named(error);
      alert.textContent = refusal(refused, FIELD_WORDS);
      submit.disabled = false;
      mark(refused);
    }
  } },
  h('fieldset', { class: 'rules-group' }, h('legend', {}, t('settings')),
    h('div', { class: 'row' },
      field('c-players', t('max_players'), players),
      field('c-target', t('target_score'), target),
      field('c-teams', t('teams'), teams)),
    h('div', { class: 'row' },
      field('c-clock', t('clock'), clock),
      field('c-timeout', t('turn_timeout'), timeout),
      field('c-max-timeouts', t('max_timeouts'), maxTimeouts)),
    bankFields,
    h('div', { class: 'row' },
      field('c-bots', t('bots'), bots),
      field('c-bot-level', t('bot_level'), botLevel)),
    h('div', { class: 'check' }, takeover, h('label', { for: 'c-takeover' }, t('bot_takeover'))),
    h('div', { class: 'check' }, isPrivate, h('label', { for: 'c-private' }, tr(WORDS.private_game))),
    h('div', { class: 'check' }, spectatorChat, h('label', { for: 'c-spectator-chat' }, tr(WORDS.spectator_chat)))),
  h('details', { class: 'house-rules' }, h('summary', {}, tr(WORDS.house_rules)), h('div', { class: 'rule-groups' }, groups)),
  alert, submit);
}

/**
 * #/join/<code>: take a seat in a private game by its invite code, then open it.
 * @param {HTMLElement} root
 * @param {string} code
 */
export async function joinPage(root, code) {
  render(root, h('p', { class: 'muted' }, t('loading')));
  try {
    go(`/game/${(await takeSeatByCode(code)).id}`);
  } catch (error) {
    render(root, h('p', { role: 'alert', class: 'error' }, refusal(error)),
      h('p', {}, h('a', { href: '#/' }, t('nav_lobby'))));
  }
}
