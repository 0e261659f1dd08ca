"""The one exception the engine raises when it refuses something, and every code it may carry.

``ENGINE_CODES`` is the registry of the engine's refusals: each code with the HTTP status the
contract gives it (409 when the game's state does not allow the action, 422 when the rules forbid
the move, 400 when the action or the settings are malformed) and what it means. The service adds
its own codes beside these (``unoservice.errors``) and the schema documents both from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Code:
    status: int
    meaning: str


ENGINE_CODES: Final[dict[str, Code]] = {
    "invalid": Code(400, "A malformed action: an unknown field, card code, colour or seat."),
    "invalid_rules": Code(400, "House rules that are unknown, out of range or do not combine."),
    "invalid_deck": Code(400, "A given deck that is not the 108 cards, each once."),
    "invalid_clock": Code(
        400, "A bank clock out of range, or whose initial or increment exceeds max."
    ),
    "not_a_player": Code(403, "The caller has no seat in this game, or left it."),
    "not_your_turn": Code(409, "Another seat must act now."),
    "game_not_active": Code(409, "The game has not started or is over."),
    "card_not_in_hand": Code(422, "The card is not in the caller's hand."),
    "illegal_card": Code(422, "The card does not match the top card, or cannot be played now."),
    "color_required": Code(422, "A wild needs a colour; a starter wild's colour comes first."),
    "target_required": Code(
        422, "A 7 under seven_zero needs the seat to swap with; a gift, the seat to receive it."
    ),
    "invalid_target": Code(422, "That seat cannot take part in a swap or receive a gift."),
    "answer_required": Code(422, "A wild-draw4 was played on the caller: challenge or accept."),
    "already_drawn": Code(422, "The caller has drawn: play the drawn card or pass."),
    "nothing_to_pass": Code(422, "Passing keeps a card just drawn; there is none."),
    "must_play": Code(
        422,
        "Under force_play a playable drawn card must be played; under must_play a seat holding "
        "a playable card may not draw.",
    ),
    "illegal_gift": Code(422, "A 2 under two_gives gives up to two cards and leaves one or more."),
    "nothing_to_challenge": Code(422, "There is no wild-draw4 to challenge or accept."),
    "nothing_to_choose": Code(422, "There is no colour to name now."),
    "cannot_say_uno": Code(422, "UNO is said holding one card, once."),
    "nothing_to_catch": Code(422, "That seat cannot be caught now."),
}

CREATION_CODES: Final = ("invalid_rules", "invalid_deck", "invalid_clock")
# What acting in a game may be refused with (``act``, ``decide``): every code but the creation's.
ACTION_CODES: Final = tuple(c for c in ENGINE_CODES if c not in CREATION_CODES)


class IllegalMove(Exception):
    """A refused action or setting: ``code`` is one of ``ENGINE_CODES``, ``detail`` for people."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = ENGINE_CODES[code].status

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.detail!r})"
