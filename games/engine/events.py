"""Events: the plain, JSON-serialisable facts the engine decides and the log stores.

An event is a dict ``{"type": str, "seat": int | None, "data": dict}``. ``seat`` is the seat the
event happened to or was done by (``None`` for the table as a whole). Every random outcome (each
shuffle, the position a starter wild-draw4 goes back to) is written into ``data``, so folding a
log never draws a random number.
"""

from __future__ import annotations

from typing import Any, Final, TypedDict


class Event(TypedDict):
    type: str
    seat: int | None
    data: dict[str, Any]


EVENT_TYPES: Final = (
    "game_started",  # data: players, options, seed
    "round_started",  # data: number, dealer, seats (deal order), deck (108 codes, top first), given
    "starter_returned",  # data: card (a wild-draw4), position in the draw pile it went back to
    "starter_turned",  # data: card
    "turn_changed",  # data: seat, direction, pending (null or {type, seat, ...})
    "card_played",  # seat; data: cards, color, uno, [target], [jump_in], [auto]
    "cards_drawn",  # seat; data: cards, reason, [auto]
    "pile_reshuffled",  # data: draw_pile (the discard pile but its top card, shuffled)
    "passed",  # seat; data: [auto]
    "challenged",  # seat (the challenger); data: target, guilty, hand (target's), color
    "color_chosen",  # seat; data: color, [auto]
    "uno_said",  # seat
    "uno_caught",  # seat (the catcher); data: target
    "hands_swapped",  # seat (who played the 7); data: target
    "hands_rotated",  # seat (who played the 0); data: direction
    "timed_out",  # seat; data: count (consecutive timeouts of that seat)
    "went_out",  # seat (elimination: leaves the round)
    "forfeited",  # seat; data: reason (timeout | resign), draw_pile (new order)
    "round_ended",  # data: number, winner_seat, points (per seat), hands (per seat)
    "game_ended",  # data: winner_seat, reason (target | forfeit)
)

# Reasons a seat draws cards. The first two are the seat's own move (they close the UNO catch
# window and reset the timeout count); the others are penalties (cards that cannot jump in).
VOLUNTARY_DRAWS: Final = frozenset({"draw", "take"})
PENALTY_DRAWS: Final = frozenset({"take", "penalty", "starter", "caught", "bluff", "challenge"})


def event(type_: str, seat: int | None = None, /, **data: Any) -> Event:
    return {"type": type_, "seat": seat, "data": data}
