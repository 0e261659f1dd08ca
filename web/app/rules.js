// The house rules of the rule book by name, for a game's summary (the table, the lobby's lists);
// rulebook.js groups and explains them for the create form, and only the lobby loads it. The
// names come from the schema: the type below makes `tsc` fail when the schema gains or loses a
// rule that is not listed here (make check-web-types), so the list cannot drift from the API.

import { duration, t } from './i18n.js';

/** @typedef {import('../types/schema').components['schemas']['RulesRequest']} RulesRequest */
/** @typedef {import('../types/schema').components['schemas']['Rules']} Rules */
/** @typedef {keyof RulesRequest} RuleName */
/** @typedef {{label: [string, string], fallback?: number}} Rule  fallback: a number's default */

/** @type {{[K in RuleName]-?: Rule}} */
export const RULES = {
  scoring: { label: ['Scoring', 'Pontuação'] },
  stacking: { label: ['Stacking', 'Acumular'] },
  reverse_bounce: { label: ['Reverse bounce', 'Inverter devolve'] },
  bluff_penalty: { label: ['Bluff penalty', 'Penalização por bluff'], fallback: 4 },
  draw_until_playable: { label: ['Draw until playable', 'Comprar até poder jogar'] },
  force_play: { label: ['Forced play', 'Jogada obrigatória'] },
  must_play: { label: ['Must play', 'Tem de jogar'] },
  jump_in: { label: ['Jump in', 'Intromissão'] },
  multi_play: { label: ['Several of a number', 'Várias do mesmo número'] },
  color_runs: { label: ['Colour runs', 'Sequências de cor'] },
  eight_again: { label: ['Eight again', 'Oito repete'] },
  action_on_action: { label: ['Action on action', 'Ação sobre ação'] },
  seven_zero: { label: ['Seven-zero', 'Sete-zero'] },
  zero_swap: { label: ['Zero swaps', 'Zero troca'] },
  zero_discards_color: { label: ['Zero discards its colour', 'Zero descarta a cor'] },
  one_rotates: { label: ['One rotates', 'Um roda'] },
  two_gives: { label: ['Two gives', 'Dois dá'] },
  no_action_finish: { label: ['No action finish', 'Não acabar com ação'] },
  no_wild_finish: { label: ['No wild finish', 'Não acabar com joker'] },
  elimination: { label: ['Elimination', 'Eliminação'] },
  number_starter: { label: ['Number starter', 'Começa com número'] },
  uno_penalty: { label: ['Missed UNO penalty', 'Penalização por UNO esquecido'], fallback: 2 },
  uno_auto_penalty: { label: ['Automatic UNO penalty', 'Penalização automática de UNO'] },
};

/** @type {RuleName[]} */
export const RULE_NAMES = /** @type {RuleName[]} */ (Object.keys(RULES));

/**
 * The rules of a game that differ from the official ones, as short labels.
 * @param {Rules} rules
 * @param {0 | 1} lang
 */
export function ruleSummary(rules, lang) {
  /** @type {string[]} */
  const on = [];
  for (const name of RULE_NAMES) {
    const value = rules[name];
    const rule = RULES[name];
    if (name === 'scoring') {
      if (value === 'penalty') on.push(rule.label[lang] + ': ' + (lang ? 'penalização' : 'penalty'));
    } else if (typeof value === 'number') {
      if (value !== rule.fallback) on.push(`${rule.label[lang]}: ${value}`);
    } else if (value) {
      on.push(rule.label[lang]);
    }
  }
  return on;
}

/**
 * How a game is timed: "30 s a turn" or "bank 3 days".
 * @param {import('../types/schema').components['schemas']['Settings']} settings
 */
export function clockText(settings) {
  const clock = settings.clock;
  if (clock.type === 'bank') return `${t('clock_bank')}: ${duration(clock.initial)} +${duration(clock.increment)}`;
  return `${t('clock_move')}: ${duration(settings.turn_timeout)}`;
}
