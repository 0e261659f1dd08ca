// What a notification says, kept once for the page and the service worker: its kind's title,
// what its data tells (who joined, invited or challenged, whom a game is with, by when a turn
// must be played, a tournament's name, who won), in English and Portuguese, and where it leads.
// The page's toasts, inbox and notification list (inbox.js imports this file) and the push
// notifications the service worker shows (sw.js loads it with `importScripts`) read them here.
// So it is a plain script, with neither `import` nor `export`, which both ways of loading accept;
// it puts what it defines on the global object. Its dates use the languages' locales
// (locales.js, loaded before it in the worker, by i18n.js in the page). `tsc` fails when the
// schema gains a kind that is missing here.

/** @typedef {import('../types/schema').components['schemas']['NotificationKindEnum']} NotificationKind */

/** @type {{[K in NotificationKind]: [string, string]}} */
const NOTIFICATION_TITLES = {
  your_turn: ['Your turn', 'A sua vez'],
  deadline_soon: ['Time is running out', 'O tempo está a acabar'],
  game_started: ['Game started', 'O jogo começou'],
  game_finished: ['Game finished', 'O jogo terminou'],
  player_joined: ['A player joined', 'Entrou um jogador'],
  invited: ['You were invited', 'Recebeu um convite'],
  challenge: ['You were challenged', 'Recebeu um desafio'],
  challenge_accepted: ['Your challenge was accepted', 'O seu desafio foi aceite'],
  tournament_starting: ['A tournament starts', 'Um torneio começa'],
  tournament_table: ['Your tournament table is ready', 'A sua mesa do torneio está pronta'],
  tournament_finished: ['A tournament is over', 'Um torneio terminou'],
  game_abandoned: ['Game abandoned', 'Jogo abandonado'],
};

/** @type {Record<string, [string, string]>} the words of what a notification is about */
const NOTE_WORDS = {
  with: ['with {names}', 'com {names}'],
  by: ['by {name}', 'por {name}'],
  you_won: ['you won', 'ganhou'],
  your_team_won: ['your team won', 'a sua equipa ganhou'],
  won_by: ['won by {name}', 'vitória de {name}'],
  place: ['{name}: place {n}', '{name}: {n}.º lugar'],
  not_held: ['{name}: did not take place, too few players', '{name}: não se realizou, jogadores insuficientes'],
  play_by: ['play by {when}', 'jogue até {when}'],
};

/**
 * What a notification is about, as far as its data tells (whom a game is with: `others`, on a
 * turn's and a start's; nothing from a notification written before they carried it; by when a
 * turn must be played: `deadline`, on a turn's and a reminder's, where the game has one), in
 * `language` (0 English, 1 Portuguese). `read`: the other players' names when the page read them
 * from the game, for a notification whose data does not name them.
 * @param {{kind?: string, data?: unknown}} note
 * @param {0 | 1} language
 * @param {string[]} [read]
 * @returns {string[]}
 */
function noteAbout(note, language, read = []) {
  /** @type {Record<string, any>} */
  const d = note.data && typeof note.data === 'object' ? note.data : {};
  const name = (/** @type {unknown} */ who) => (who && typeof who === 'object' && 'username' in who ? String(who.username) : '');
  const say = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ vars = {}) =>
    NOTE_WORDS[key][language].replace(/\{(\w+)\}/g, (_, part) => String(vars[part] ?? ''));
  /** @type {string[]} */
  const about = [];
  if (note.kind === 'player_joined' && name(d.player)) about.push(`${name(d.player)} (${d.players}/${d.max_players})`);
  else if (name(d.by)) about.push(say('by', { name: name(d.by) }));
  if (typeof d.name === 'string') {
    if (d.reason === 'not_enough_players') about.push(say('not_held', { name: d.name }));
    else about.push(typeof d.place === 'number' ? say('place', { name: d.name, n: d.place }) : d.name);
  }
  if (note.kind === 'game_finished') {
    const won = typeof d.won === 'boolean' ? d.won : typeof d.winner_seat === 'number' && d.winner_seat === d.seat;
    if (won) about.push(say(typeof d.winner_team === 'number' ? 'your_team_won' : 'you_won'));
    else if (name(d.winner)) about.push(say('won_by', { name: name(d.winner) }));
  }
  const others = Array.isArray(d.others) ? d.others.map(name).filter(Boolean) : read;
  if (!about.length && others.length) about.push(say('with', { names: others.join(', ') }));
  const due = (note.kind === 'your_turn' || note.kind === 'deadline_soon') && typeof d.deadline === 'string' ? new Date(d.deadline) : null;
  if (due && !Number.isNaN(due.getTime())) {
    const when = new Intl.DateTimeFormat([LOCALES.en, LOCALES.pt][language], { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
    about.push(say('play_by', { when: when.format(due) }));
  }
  return about;
}

/**
 * Where a notification leads (a route of the page): its game, else its tournament, else the inbox.
 * @param {{game?: string | null, data?: unknown}} note
 */
function noteLink(note) {
  if (note.game) return `#/game/${note.game}`;
  const tournament = note.data && typeof note.data === 'object' ? /** @type {Record<string, unknown>} */ (note.data).tournament : undefined;
  return typeof tournament === 'string' ? `#/tournaments/${tournament}` : '#/inbox';
}

// Loaded as a module (the page), the names above are the module's own: the global keeps them.
Object.assign(globalThis, { NOTIFICATION_TITLES, noteAbout, noteLink });
