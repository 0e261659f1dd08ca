// The title of every notification kind, in English and Portuguese, kept once for the page and the
// service worker: the page's toasts, inbox and notification list (inbox.js imports this file) and
// the push notifications the service worker shows (sw.js loads it with `importScripts`). So it is
// a plain script, with neither `import` nor `export`, which both ways of loading accept; it puts
// its table on the global object. `tsc` fails when the schema gains a kind that is missing here.

/** @typedef {import('../types/schema').components['schemas']['NotificationKindEnum']} NotificationKind */

/** @type {{[K in NotificationKind]: [string, string]}} */
const NOTIFICATION_TITLES = {
  your_turn: ['Your turn', 'A sua vez'],
  deadline_soon: ['Time is running out', 'O tempo está a acabar'],
  game_started: ['Game started', 'O jogo começou'],
  game_finished: ['Game finished', 'O jogo terminou'],
  player_joined: ['A player joined', 'Entrou um jogador'],
  invited: ['You were invited', 'Foi convidado'],
  challenge: ['You were challenged', 'Foi desafiado'],
  challenge_accepted: ['Your challenge was accepted', 'O seu desafio foi aceite'],
  tournament_starting: ['A tournament starts', 'Um torneio começa'],
  tournament_table: ['Your tournament table is ready', 'A sua mesa do torneio está pronta'],
  tournament_finished: ['A tournament is over', 'Um torneio terminou'],
};

// Loaded as a module (the page), the constant above is the module's own: the global keeps it.
Object.assign(globalThis, { NOTIFICATION_TITLES });
