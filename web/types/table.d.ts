// The table's state (web/app/table/state.js): its types, and what they mean. Declarations
// only: type-checked with the client (tsc --checkJs), never sent to a browser.
//
// `state.view` is the game as the table knows it: the last game view read (GET
// /api/v1/games/{id}/, or the answer to an action), with every stream frame since applied to it
// by `applyEvent` (each frame's data is the event as the event log serves it to this seat). A
// frame is applied only when its seq is the next one. The only cards added to the seat's hand are
// those a frame shows it, so the table never shows a card the seat may not see.
//
// The view is read again only while `state.stale` is set, which says why:
// - 'gap': a frame's seq is not the next one. The frames past the gap wait in `state.ahead`
//   and are applied after the view, from its version on.
// - 'reconnect': the stream came back after it dropped (or after the long poll stood in for it).
// - 'actions': the seat's legal actions, which only the server's rules engine computes. They are
//   read only when, after a frame, the seat may have something to do, and no action of its own
//   is on its way (whose answer is the view, actions included). It may when it sits and plays in
//   an active round and it is its turn or a decision is pending on it, or it holds one card
//   without having said UNO, or another seat is catchable (holds one card without UNO), or
//   `jump_in` is on, nothing is pending and it holds a card like the top card. Off its turn the
//   server offers a seat nothing but jump-ins, UNO and catches, so otherwise its actions are
//   known to be none without a read. These are necessary conditions only, never the rules:
//   which card is playable, what may be stacked, caught or jumped in with is the server's answer.
// - 'hand': hands_swapped with this seat, or hands_rotated while it plays: its new hand is
//   another seat's, which no frame shows it.
// - 'finished': game_ended: the finished view reveals the seed, the salt and every hand.
// - 'clock': a timeout (the server starts the next turn's clock at the deadline it acted on,
//   which no frame carries), or a turn passing to a seat on vacation (its deadline moves).
// - 'takeover': with bot_takeover, a seat one timeout from forfeiting moves when its time is up:
//   a bot may have taken it over, which no frame says.
// - 'unknown': a frame the table cannot read (an unknown type, no data, game_started).
// Stale for 'gap', 'hand' or 'unknown', the table cannot follow and keeps the frames in `ahead`;
// for the other reasons it goes on applying them. The page shows a state only once it is whole
// (not stale), so `data-version` and the buttons always belong to the same moment.
//
// The turn's deadline is the view's until a frame changes the turn; from then on it is that
// frame's time (the server starts a turn's clock when the turn changes) plus the seat's allowance
// (the turn timeout, or its bank with the bank clock). A bot's turn shows none: it plays at once.
// No frame carries a vacation, a bot taking over a seat that resigned, or a rematch: those show
// at the next read (at the latest on the seat's next turn).

import type { components } from './schema';

type Schemas = components['schemas'];
type GameView = Schemas['GameView'];
type GameEvent = Schemas['Event'];
type PlayAction = Schemas['PlayAction'];
type Card = Schemas['CardEnum'];

export type Link = 'live' | 'reconnecting' | 'polling' | 'off';
export type Stale = 'gap' | 'reconnect' | 'actions' | 'hand' | 'finished' | 'clock' | 'takeover' | 'unknown';

/** What the person is in the middle of choosing for a card: its colour, then its target, then (two_gives) a gift. */
export interface Choice {
  card: Card;
  options: PlayAction[];
  step: 'color' | 'target' | 'give';
  give: number[];
}

/** A line for the table's own live region (render.js words it): the turn coming to the
 * seat. The moves, the round's and the game's ends are the feed's lines (feed.js). */
export type Announcement = { kind: 'your_turn'; top: Card | null };

/** What the person is picking; dropped whenever the game moves. */
export interface Picking {
  choice: Choice | null;
  unoArmed: boolean;
  selecting: boolean;
  selected: number[];
}

export interface TableState {
  gameId: string;
  me: { id: number; username: string } | null;
  /** See above. */
  view: GameView | null;
  /** The version `view.you.legal_actions` belong to (stale below view.version). */
  legalAt: number;
  stale: Stale | null;
  /** Frames past a gap. */
  ahead: GameEvent[];
  /** A read is on its way. */
  reading: boolean;
  /** The last read failed (the state is shown as it is). */
  failed: boolean;
  /** The frame that last changed the turn (null: the view's deadline holds). */
  turn: { seat: number; at: string } | null;
  link: Link;
  picking: Picking;
  resigning: boolean;
  busy: boolean;
  /** A selector to focus after the next render. */
  focus: string | null;
  error: string;
  announce: { n: number; what: Announcement } | null;
  /** The finished game's deck commitment as checked (null: not yet asked; verified null: being checked or not checkable; seed: its exact digits). */
  fair: { verified: boolean | null; seed: string | null } | null;
}

export type Message =
  | { type: 'read' }
  | { type: 'read-done'; view: GameView }
  | { type: 'read-failed'; error: string }
  | { type: 'view'; view: GameView }
  | { type: 'frame'; seq: number; event: GameEvent | null }
  | { type: 'link'; link: Link }
  | { type: 'error'; error: string }
  | { type: 'busy'; busy: boolean }
  | { type: 'pick'; picking: Partial<Picking>; focus?: string | null }
  | { type: 'resigning'; on: boolean; focus?: string | null }
  | { type: 'focused' }
  | { type: 'fair'; verified: boolean | null; seed: string | null };
