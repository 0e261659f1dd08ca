"""What one seat knows of the cards, read from its own view and its own event log only.

A bot is given ``view(state, seat)`` and the log as ``event_view(e, seat, revealed=False)`` shows
it. From these it follows the current round: the cards on the discard pile (every play is public),
and the cards it knows another hand holds (a challenged hand it was shown, the hand it gave away
in a 7-0 swap or rotation), less the cards that hand has played since. Everything else is
unknown and, for the search bot, sampled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import COLOR_OF, COLORS, DECK, WILD_DRAW4
from games.engine.events import Event
from games.engine.options import Options, options_from_data

Action = dict[str, Any]
SeatView = Mapping[str, Any]


@dataclass
class Knowledge:
    """The seat's picture of the round: the discard pile and known cards of each hand."""

    seat: int
    players: int
    options: Options
    discard: list[str] = field(default_factory=list)
    known: list[list[str]] = field(default_factory=list)  # a subset of each hand, by seat
    # By seat: a suit (a colour, or "wild") -> how many of the hand's cards may be of it. A seat
    # that draws instead of playing most likely held no card of the colour in play and no wild:
    # only the cards it has taken since may be. Players do draw with a card to play, so the
    # search samples with these but drops them when the cards left cannot meet them.
    voids: list[dict[str, int]] = field(default_factory=list)
    # The unknown cards, once worked out for a decision (``unknown_pool`` of the seat's hand).
    pool: list[str] | None = None

    def unknown_pool(self, hand: Sequence[str]) -> list[str]:
        """The cards the seat cannot place: not in its hand, on the discard pile, or known to be
        in another hand. They lie in the other hands or the draw pile."""
        left = Counter(DECK)
        left.subtract(hand)
        left.subtract(self.discard)
        for s, cards in enumerate(self.known):
            if s != self.seat:
                left.subtract(cards)
        return [card for card, count in sorted(left.items()) for _ in range(max(count, 0))]

    def color_share(self, hand: Sequence[str], color: str) -> float:
        """The share of the unknown cards that are of ``color``."""
        pool = self.unknown_pool(hand)
        if not pool:
            return 0.0
        return sum(1 for card in pool if card.startswith(color + "-")) / len(pool)

    def lacks(self, hand: Sequence[str], seat: int, color: str, held: int) -> float:
        """The odds that ``seat``, holding ``held`` cards, holds none of ``color`` (``hand`` is
        this seat's own): each card it may hold of the colour (its voids bound them) is one of
        the unknown cards, drawn at random."""
        if self.pool is None:
            self.pool = self.unknown_pool(hand)
        if not self.pool:
            return 0.0
        share = sum(1 for card in self.pool if COLOR_OF[card] == color) / len(self.pool)
        may = min(held, self.voids[seat].get(color, held)) if self.voids else held
        return float((1.0 - share) ** may)


def _remove(cards: list[str], gone: Sequence[str]) -> None:
    for card in gone:
        if card in cards:
            cards.remove(card)


def _holders(statuses: list[str]) -> list[int]:
    return [s for s, status in enumerate(statuses) if status == "playing"]


def read(seen: SeatView, events: Sequence[Event]) -> Knowledge:
    """Follow the seat's log through the current round (``events`` as that seat sees them)."""
    seat = seen["you"]["seat"]
    players = len(seen["seats"])
    options = Options()
    rules = (seen.get("settings") or {}).get("rules")
    if rules:
        options = options_from_data({**Options().to_data(), **rules})
    k = Knowledge(seat=seat, players=players, options=options, known=[[] for _ in range(players)])
    k.voids = [{} for _ in range(players)]
    statuses = ["playing"] * players
    color: str | None = None
    for item in events:
        kind, who, data = item["type"], item["seat"], item["data"]
        if kind == "game_started":
            k.options = options_from_data(data["options"])
        elif kind == "round_started":
            k.discard = []
            k.known = [[] for _ in range(players)]
            k.known[seat] = list(data.get("hand") or [])
            k.voids = [{} for _ in range(players)]
            statuses = ["playing" if s == "out" else s for s in statuses]
        elif kind == "starter_turned":
            k.discard = [data["card"]]
            color = COLOR_OF[data["card"]]
        elif kind == "card_played" and who is not None:
            k.discard += data["cards"]
            if data["cards"][-1] == WILD_DRAW4 and color is not None:
                # A wild-draw4 is legal only without the colour in play: take it as honest
                # (the challenge it may get is this seat's bet that it was not).
                k.voids[who][color] = 0
            color = data["color"]
            _remove(k.known[who], data["cards"])
            voids = k.voids[who]
            for card in data["cards"]:
                suit = COLOR_OF[card] or "wild"
                if suit in voids:  # it came from the cards taken since the draw
                    voids[suit] = max(voids[suit] - 1, 0)
        elif kind == "color_chosen":
            color = data["color"]
        elif kind == "cards_drawn" and who is not None:
            count = data.get("count", len(data.get("cards") or []))
            voids = k.voids[who]
            for suit in voids:
                voids[suit] += count
            if data["reason"] == "draw" and color is not None and not data.get("auto"):
                voids[color] = count
                voids["wild"] = count
            if who == seat:
                k.known[seat] += data.get("cards") or []
        elif kind == "pile_reshuffled":
            k.discard = k.discard[-1:]
        elif kind == "challenged" and "hand" in data:
            k.known[data["target"]] = list(data["hand"])
        elif kind == "hands_swapped" and who is not None:
            target = data["target"]
            k.known[who], k.known[target] = k.known[target], k.known[who]
            k.voids[who], k.voids[target] = k.voids[target], k.voids[who]
        elif kind == "hands_rotated":
            order = _holders(statuses)
            if data["direction"] < 0:
                order.reverse()
            before, voids_before = list(k.known), list(k.voids)
            for index, s in enumerate(order):
                k.known[order[(index + 1) % len(order)]] = before[s]
                k.voids[order[(index + 1) % len(order)]] = voids_before[s]
        elif kind == "went_out" and who is not None:
            statuses[who] = "out"
        elif kind == "forfeited" and who is not None:
            statuses[who] = "forfeited"
            k.known[who] = []
            k.voids[who] = {}
    # The view is the truth for the seat's own hand and the top card: mend what the log missed
    # (a service that passes only part of the log).
    k.known[seat] = list(seen["you"]["hand"])
    top = seen["round"]["top_card"]
    if top is not None and (not k.discard or k.discard[-1] != top):
        k.discard = [top]
    for s, entry in enumerate(seen["seats"]):
        if s != seat and len(k.known[s]) > entry["hand_count"]:
            k.known[s] = []
    return k


def most_held_color(hand: Sequence[str]) -> str:
    """The colour ``hand`` holds most of (ties to the first in ``COLORS``)."""
    counts = Counter(card.split("-", 1)[0] for card in hand if card.split("-", 1)[0] in COLORS)
    return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))
