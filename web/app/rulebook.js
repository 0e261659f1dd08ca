// The rule book's explanations, for the lobby's create form only: each house rule's group, what it
// does, and a number's bounds (rules.js has the names, which the table needs too). Typed, as
// rules.js is, against the schema's list of rules: tsc fails when one is missing here.

/** @typedef {import('./rules.js').RuleName} RuleName */
/** @typedef {'scoring' | 'drawing' | 'draw_cards' | 'special' | 'playing' | 'finishing' | 'uno'} Group */
/** @typedef {{group: Group, text: [string, string], min?: number, max?: number}} Help */

/** @type {Record<Group, [string, string]>} */
export const GROUPS = {
  scoring: ['Scoring', 'Pontuação'],
  drawing: ['Drawing', 'Comprar'],
  draw_cards: ['Draw cards and bluffs', 'Cartas de compra e bluffs'],
  special: ['Cards with new powers', 'Cartas com novos poderes'],
  playing: ['Playing more at once', 'Jogar mais de uma vez'],
  finishing: ['Starting and going out', 'Começar e acabar'],
  uno: ['Saying UNO', 'Dizer UNO'],
};

/** @type {{[K in RuleName]-?: Help}} */
export const RULE_HELP = {
  scoring: {
    group: 'scoring',
    text: ['Winner: whoever goes out scores the cards left in the other hands (official). Penalty: each scores their own cards; the lowest total wins.',
      'Vencedor: quem acaba soma as cartas das outras mãos (oficial). Penalização: cada um soma as suas; ganha o total mais baixo.'],
  },
  stacking: {
    group: 'draw_cards',
    text: ['Answer a draw 2 or draw 4 with another; the penalty adds up and passes on.',
      'Responder a um +2 ou +4 com outro; a penalização soma e passa adiante.'],
  },
  reverse_bounce: {
    group: 'draw_cards',
    text: ['With stacking: a reverse of the colour sends the penalty back.',
      'Com acumular: um inverte da cor devolve a penalização.'],
  },
  bluff_penalty: {
    group: 'draw_cards', min: 0, max: 20,
    text: ['Cards drawn by a player caught bluffing a draw 4.', 'Cartas que compra quem é apanhado a fazer bluff com um +4.'],
  },
  draw_until_playable: {
    group: 'drawing',
    text: ['Keep drawing until a card can be played.', 'Continuar a comprar até sair uma carta jogável.'],
  },
  force_play: {
    group: 'drawing',
    text: ['A playable drawn card must be played.', 'Uma carta comprada jogável tem de ser jogada.'],
  },
  must_play: {
    group: 'drawing',
    text: ['No drawing while holding a playable card (draw 4s excepted).', 'Não se compra tendo uma carta jogável (exceto +4).'],
  },
  jump_in: {
    group: 'playing',
    text: ['Play an identical card out of turn; play goes on from you.', 'Jogar uma carta idêntica fora da vez; o jogo continua a partir de si.'],
  },
  multi_play: {
    group: 'playing',
    text: ['Play several cards of one number at once.', 'Jogar várias cartas do mesmo número de uma vez.'],
  },
  color_runs: {
    group: 'playing',
    text: ['Play a run of one colour (3-4-5) in one move.', 'Jogar uma sequência de uma cor (3-4-5) de uma vez.'],
  },
  eight_again: {
    group: 'playing',
    text: ['An 8 on top: the same player plays again.', 'Um 8 no topo: o mesmo jogador joga outra vez.'],
  },
  action_on_action: {
    group: 'playing',
    text: ['No different action card on a skip, reverse or draw 2.', 'Nenhuma carta de ação diferente sobre salta, inverte ou +2.'],
  },
  seven_zero: {
    group: 'special',
    text: ['A 7 swaps hands with a player you choose; a 0 passes every hand on.', 'Um 7 troca de mão com quem escolher; um 0 passa todas as mãos.'],
  },
  zero_swap: {
    group: 'special',
    text: ['A 0 may swap hands with a player. Not with seven-zero.', 'Um 0 pode trocar de mão com um jogador. Não com sete-zero.'],
  },
  zero_discards_color: {
    group: 'special',
    text: ['A 0 (the 1 with zero swaps) discards your other cards of its colour.', 'Um 0 (o 1 com zero troca) descarta as suas outras cartas dessa cor.'],
  },
  one_rotates: {
    group: 'special',
    text: ['A 1 passes every hand on.', 'Um 1 passa todas as mãos.'],
  },
  two_gives: {
    group: 'special',
    text: ['A 2 gives up to two of your cards to a player.', 'Um 2 dá até duas das suas cartas a um jogador.'],
  },
  no_action_finish: {
    group: 'finishing',
    text: ['No going out on an action or wild card.', 'Não se acaba com uma carta de ação ou joker.'],
  },
  no_wild_finish: {
    group: 'finishing',
    text: ['No going out on a wild. Not with no action finish.', 'Não se acaba com um joker. Não com não acabar com ação.'],
  },
  elimination: {
    group: 'finishing',
    text: ['Who goes out leaves the round; the rest play on until one is left.', 'Quem acaba sai da ronda; os outros continuam até restar um.'],
  },
  number_starter: {
    group: 'finishing',
    text: ['The first card turned is always a number.', 'A primeira carta virada é sempre um número.'],
  },
  uno_penalty: {
    group: 'uno', min: 0, max: 20,
    text: ['Cards drawn when caught not saying UNO.', 'Cartas que compra quem é apanhado sem dizer UNO.'],
  },
  uno_auto_penalty: {
    group: 'uno',
    text: ['An unsaid UNO is penalised even if nobody catches it.', 'Um UNO não dito é penalizado mesmo sem ninguém apanhar.'],
  },
};
