"""Card codes, colours, the 108-card deck and the points each card is worth.

A card is its code everywhere (hands, piles, events, the API): ``red-7``, ``green-skip``,
``blue-draw2``, ``wild``, ``wild-draw4``. Two physical copies of a card share one code, so a hand
is a tuple of codes that may repeat.
"""

from __future__ import annotations

from typing import Final

COLORS: Final = ("red", "yellow", "green", "blue")
NUMBERS: Final = tuple(str(n) for n in range(10))
ACTIONS: Final = ("skip", "reverse", "draw2")
WILD: Final = "wild"
WILD_DRAW4: Final = "wild-draw4"
WILDS: Final = (WILD, WILD_DRAW4)


def _build_deck() -> tuple[str, ...]:
    cards: list[str] = []
    for color in COLORS:
        cards.append(f"{color}-0")
        for rank in NUMBERS[1:] + ACTIONS:
            cards += [f"{color}-{rank}"] * 2
    cards += [WILD] * 4 + [WILD_DRAW4] * 4
    return tuple(cards)


DECK: Final[tuple[str, ...]] = _build_deck()
"""The 108 cards in a fixed order: the unshuffled deck."""

CARD_CODES: Final[frozenset[str]] = frozenset(DECK)

# Lookups by code keep the hot paths of the engine free of string parsing.
COLOR_OF: Final[dict[str, str | None]] = {}
PRINTED_COLOR: Final[dict[str, str]] = {}  # the colour of every card but the wilds
RANK_OF: Final[dict[str, str]] = {}
POINTS: Final[dict[str, int]] = {}
for _code in CARD_CODES:
    if _code in WILDS:
        COLOR_OF[_code] = None
        RANK_OF[_code] = _code
        POINTS[_code] = 50
    else:
        _color, _rank = _code.split("-", 1)
        COLOR_OF[_code] = PRINTED_COLOR[_code] = _color
        RANK_OF[_code] = _rank
        POINTS[_code] = int(_rank) if _rank in NUMBERS else 20

NUMBER_CARDS: Final[frozenset[str]] = frozenset(c for c in CARD_CODES if RANK_OF[c] in NUMBERS)


def is_number(card: str) -> bool:
    return card in NUMBER_CARDS


def is_wild(card: str) -> bool:
    return card in (WILD, WILD_DRAW4)


def is_draw_card(card: str) -> bool:
    """A card that makes the next player draw: a draw2 or a wild-draw4."""
    return card == WILD_DRAW4 or RANK_OF[card] == "draw2"


def hand_points(hand: tuple[str, ...] | list[str]) -> int:
    return sum(POINTS[c] for c in hand)
