// Type-checked with `tsc --strict` against the types openapi-typescript generates from the served
// schema (tests/clients/test_clients.py): what a TypeScript client writes, without casts.
import type { components, paths } from "./api";

type GameView = components["schemas"]["GameView"];
type GameEvent = components["schemas"]["Event"];
type Card = components["schemas"]["CardEnum"];
type ActBody =
  paths["/api/v1/games/{game_id}/actions/"]["post"]["requestBody"]["content"]["application/json"];

// A listed legal action is sent back as it is.
export function firstLegalAction(view: GameView): ActBody | null {
  if (view.you === null) return null;
  const listed = view.you.legal_actions[0];
  return listed === undefined ? null : listed;
}

// A card from the hand goes into a play without a cast.
export function playFirstCard(view: GameView): ActBody | null {
  const card: Card | undefined = view.you?.hand[0];
  return card === undefined ? null : { action: "play", card, uno: view.you?.hand.length === 2 };
}

export function waitingOn(view: GameView): string {
  const pending = view.round?.pending;
  if (pending === null || pending === undefined) return "nothing";
  switch (pending.type) {
    case "color":
      return `seat ${pending.seat} names a colour`;
    case "play_drawn":
      return `seat ${pending.seat} may play ${pending.card ?? "the card it drew"}`;
    case "wild_draw4":
      return `seat ${pending.seat} owes ${pending.amount}, was ${pending.previous_color}`;
    case "draw_penalty":
      return `seat ${pending.seat} owes ${pending.amount} (${pending.draw_card})`;
  }
}

export function describe(event: GameEvent): string {
  switch (event.type) {
    case "card_played":
      return `${event.seat} played ${event.data.cards.join(", ")} (${event.data.color})`;
    case "cards_drawn":
      return `${event.seat} drew ${event.data.count}: ${(event.data.cards ?? []).join(", ")}`;
    case "round_ended":
      return `round ${event.data.number}: ${event.data.hands.map((hand: Card[]) => hand.length)}`;
    case "uno_said":
    case "went_out":
      return `${event.seat} ${event.type} ${Object.keys(event.data).length}`;
    default:
      return event.type;
  }
}

export function lastHands(view: GameView): Record<string, Card[]> {
  return view.last_round === null ? {} : view.last_round.hands;
}

// Sessions: a refresh sends the pair's refresh token and keeps the new pair, without casts.
type Pair = components["schemas"]["AuthToken"];
type RefreshBody =
  paths["/api/v1/auth/refresh/"]["post"]["requestBody"]["content"]["application/json"];
type Sessions =
  paths["/api/v1/players/me/sessions/"]["get"]["responses"]["200"]["content"]["application/json"];

export function refreshBody(pair: Pair): RefreshBody {
  return { refresh: pair.refresh };
}

export function authorization(pair: Pair): string {
  return `Token ${pair.access} (until ${pair.access_expires_at}, session ${pair.session})`;
}

export function otherSessions(sessions: Sessions): string[] {
  return sessions.filter((s) => !s.current).map((s) => `${s.user_agent} ${s.address} ${s.last_used}`);
}
