"""The one check that all 108 cards are accounted for."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import DECK, GameState


def assert_every_card_accounted(state: GameState) -> None:
    """Hands + draw pile + discard pile hold the 108 cards of the deck, each exactly once."""
    on_table: Counter[str] = Counter(state.draw_pile) + Counter(state.discard_pile)
    for hand in state.hands:
        on_table.update(hand)
    assert sum(on_table.values()) == len(DECK) == 108
    assert on_table == Counter(DECK)


def cards_in_view(view: dict[str, Any]) -> int:
    """How many cards a game view counts: every hand, the draw pile and the discard pile."""
    rnd = view["round"]
    return sum(s["hand_count"] for s in view["seats"]) + rnd["draw_pile"] + rnd["discard_pile"]
