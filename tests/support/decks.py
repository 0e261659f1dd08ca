"""Build given deck orders so that a test can set the table exactly as a page of the rule book."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.engine import DECK

# The one salt of every game in tests (in-process and in the servers the tests start), so that a
# seed deals the same cards on every run: production salts each game at random.
TEST_SALT = "5a" * 32


def deck_for(
    hands: Sequence[Sequence[str]],
    starter: str,
    draws: Sequence[str] = (),
) -> list[str]:
    """A 108-card deck that deals ``hands`` (7 cards each, seat 0 first) in round 1.

    In round 1 the dealer is the last seat, so the deal goes to seats 0, 1, …, n-1, one card at a
    time. ``starter`` is turned face up after the deal; ``draws`` are the next cards of the draw
    pile, top first. The rest of the pile follows in the order of the unshuffled deck.
    """
    players = len(hands)
    if any(len(hand) != 7 for hand in hands):
        raise ValueError("every hand is dealt 7 cards")
    order: list[str] = []
    for i in range(7):
        for hand in hands:
            order.append(hand[i])
    order.append(starter)
    order.extend(draws)
    left = Counter(DECK)
    left.subtract(order)
    if any(n < 0 for n in left.values()):
        raise ValueError(
            f"more copies than the deck holds: {[c for c, n in left.items() if n < 0]}"
        )
    for card in DECK:
        if left[card] > 0:
            order.append(card)
            left[card] -= 1
    assert len(order) == 108 and players * 7 < 108
    return order
