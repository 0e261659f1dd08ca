// Run by test_table_reducer.py: the table's reducer (web/app/table/state.js, copied beside this
// script as state.mjs) over the cases of a JSON file. Each case is one seat's (or a spectator's)
// view of a game: the view it starts from, then each event as that seat sees it with the
// engine's view after it. After each frame the reducer's view must be the engine's (the fields
// the table shows); when the reducer says it must read the view, the engine's is handed to it,
// as a read would. Prints one JSON line: the mismatches and what was read, and why.

import { readFileSync } from 'node:fs';
import { initialState, reduce } from './state.mjs';

const LOST = new Set(['gap', 'hand', 'unknown']);
const SEAT_FIELDS = ['seat', 'hand_count', 'score', 'uno', 'catchable', 'status', 'timeouts', 'bank', 'team'];
const ROUND_FIELDS = ['number', 'dealer', 'current_seat', 'direction', 'top_card', 'color', 'draw_pile', 'discard_pile', 'pending'];

/** The part of a view the table shows (and legal_actions aside). */
function shown(view) {
  const pick = (object, fields) => Object.fromEntries(fields.filter((f) => object[f] !== undefined).map((f) => [f, object[f]]));
  return JSON.stringify({
    status: view.status,
    seats: view.seats.map((s) => pick(s, SEAT_FIELDS)),
    round: view.round && pick(view.round, ROUND_FIELDS),
    hand: view.you?.hand ?? null,
    last_round: view.last_round,
    winner_seat: view.winner_seat,
    winner_team: view.winner_team ?? null,
  });
}

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = { cases: cases.length, frames: 0, acting: 0, reads: {}, mismatches: [], missed: [], unapplied: [] };
for (const c of cases) {
  const full = (step) => ({ ...step.view, settings: c.settings, version: step.seq, id: 'g', deck_commitment: null });
  let state = reduce(initialState('g', null), { type: 'read-done', view: full(c.start) });
  for (const step of c.steps) {
    out.frames += 1;
    state = reduce(state, { type: 'frame', seq: step.seq, event: step.event });
    const expected = full(step);
    const legal = step.view.you?.legal_actions ?? [];
    if (legal.length) out.acting += 1;
    const where = `${c.name}, seat ${c.viewer}, seq ${step.seq} ${step.event.type}`;
    if (!state.stale || !LOST.has(state.stale)) {
      if (state.view.version !== step.seq) {
        out.unapplied.push(where);
      } else if (shown(state.view) !== shown(expected)) {
        out.mismatches.push({ where, got: JSON.parse(shown(state.view)), want: JSON.parse(shown(expected)) });
      }
      // Never "nothing to do" while the server offers the seat something.
      if (legal.length && state.legalAt === state.view.version) out.missed.push({ where, legal });
    }
    if (state.stale) {
      out.reads[state.stale] = (out.reads[state.stale] ?? 0) + 1;
      state = reduce(state, { type: 'read-done', view: expected });
    }
  }
}
console.log(JSON.stringify(out));
