"""The one exception the engine raises when it refuses something, and every code it may carry.

``ENGINE_CODES`` is the list of the engine's refusals: each code and what it means. The engine
knows nothing of HTTP: the service's registry (``unoservice.errors.ERROR_CODES``) gives each of
these codes its status beside the service's own codes, and the schema documents both from there.
"""

from __future__ import annotations

from typing import Any, Final

ENGINE_CODES: Final[dict[str, str]] = {
    "invalid": "A malformed action: an unknown field, card code, colour or seat.",
    "invalid_rules": "House rules that are unknown, out of range or do not combine.",
    "invalid_deck": "A given deck that is not the 108 cards, each once.",
    "invalid_clock": "A bank clock out of range, or whose initial or increment exceeds max.",
    "not_a_player": "The caller has no seat in this game, or left it.",
    "not_your_turn": "Another seat must act now.",
    "game_not_active": "The game has not started or is over.",
    "card_not_in_hand": "The card is not in the caller's hand.",
    "illegal_card": "The card does not match the top card, or cannot be played now.",
    "color_required": "A wild needs a colour; a starter wild's colour comes first.",
    "target_required": (
        "A 7 under seven_zero needs the seat to swap with; a gift, the seat to receive it."
    ),
    "invalid_target": "That seat cannot take part in a swap or receive a gift.",
    "answer_required": "A wild-draw4 was played on the caller: challenge or accept.",
    "already_drawn": "The caller has drawn: play the drawn card or pass.",
    "nothing_to_pass": "Passing keeps a card just drawn; there is none.",
    "must_play": (
        "Under force_play a playable drawn card must be played; under must_play a seat holding "
        "a playable card may not draw."
    ),
    "illegal_gift": "A 2 under two_gives gives up to two cards and leaves one or more.",
    "nothing_to_challenge": "There is no wild-draw4 to challenge or accept.",
    "nothing_to_choose": "There is no colour to name now.",
    "cannot_say_uno": "UNO is said holding one card, once.",
    "nothing_to_catch": "That seat cannot be caught now.",
}

CREATION_CODES: Final = ("invalid_rules", "invalid_deck", "invalid_clock")
# What acting in a game may be refused with (``act``, ``decide``): every code but the creation's.
ACTION_CODES: Final = tuple(c for c in ENGINE_CODES if c not in CREATION_CODES)


class IllegalMove(Exception):
    """A refused action or setting: ``code`` is one of ``ENGINE_CODES``, ``detail`` for people.

    ``fields``, for a refused setting: the settings refused, by their path in a game's creation
    (``teams``, ``rules.stacking``), each with checks as an ``invalid`` body's ``fields`` has them
    (``{"code", "message", ...}``: unoservice.field_checks), for a client to say in its words.
    """

    def __init__(
        self, code: str, detail: str, fields: dict[str, list[dict[str, Any]]] | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.fields = fields or {}

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.detail!r})"
