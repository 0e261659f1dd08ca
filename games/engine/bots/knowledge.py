"""What one seat knows of the cards, read from its own view and its own event log only.

A bot is given ``view(state, seat)`` and the log as ``event_view(e, seat, revealed=False)`` shows
it. From these it follows the current round: the cards on the discard pile (every play is public),
and the cards it knows another hand holds (a challenged hand it was shown, the hand it gave away
in a 7-0 swap or rotation), less the cards that hand has played since. Everything else is
unknown and, for the search bot, sampled.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import ACTIONS, COLOR_OF, COLORS, DECK, POINTS, RANK_OF, WILD_DRAW4, WILDS
from games.engine.events import Event
from games.engine.options import Options, options_from_data

Action = dict[str, Any]
SeatView = Mapping[str, Any]


# By card: the suits a void may bar it by (``Knowledge.voids``): its colour ("wild" for a
# wild), and for a coloured card its rank.
SUITS: dict[str, tuple[str, ...]] = {
    card: (color, "#" + RANK_OF[card]) if color is not None else ("wild",)
    for card, color in COLOR_OF.items()
}


@dataclass
class Knowledge:
    """The seat's picture of the round: the discard pile and known cards of each hand."""

    seat: int
    players: int
    options: Options
    discard: list[str] = field(default_factory=list)
    known: list[list[str]] = field(default_factory=list)  # a subset of each hand, by seat
    # By seat: a suit (a colour, "wild", or "#" and a rank: ``SUITS``) -> how many of the hand's
    # cards may be of it. A seat that draws instead of playing most likely held no card of the
    # colour in play, none of the top card's rank and no wild: only the cards it has taken
    # since may be. Players do draw with a card to play, so the
    # search samples with these but drops them when the cards left cannot meet them.
    voids: list[dict[str, int]] = field(default_factory=list)
    # The unknown cards, once worked out for a decision (``unknown_pool`` of the seat's hand).
    pool: list[str] | None = None
    # By seat: the cards it chose to play since it last drew (``Choice``). Most players play
    # as the basic player does (the colour they hold most of, action cards before numbers,
    # wilds when nothing else plays), so a hand it may hold is likelier when the basic player
    # holding it would have chosen the same (``agrees``): the search prefers such worlds.
    prefers: list[list[Choice]] = field(default_factory=list)

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


@dataclass
class Choice:
    """A card a seat chose to play from its own turn, and what it saw then: the colour in play,
    the top card's rank, and whether the next seat was about to go out (``danger``). ``since``:
    the cards it has played after it (it has drawn none since: a draw forgets its choices)."""

    card: str
    color: str  # the colour in play after the card (a wild's named colour)
    before: str
    top_rank: str
    danger: bool
    since: list[str] = field(default_factory=list)
    swaps: bool = False  # seven_zero: a 7 or a 0 it held is worth what the swap gives


# By card: the basic player's score of playing it, less twice the other cards of its colour
# held (``_score_play`` under the official rules, less what every play shares, such as UNO):
# without and with the next seat about to go out. A wild's is less three times the other
# cards of the colour it names.
_WORTH: dict[str, tuple[float, float]] = {}
for _card in COLOR_OF:
    if _card in WILDS:
        _WORTH[_card] = (-18.0, -12.0) if _card == WILD_DRAW4 else (-20.0, -20.0)
    elif RANK_OF[_card] in ACTIONS:
        _extra = 1.0 if RANK_OF[_card] == "draw2" else 0.0
        _WORTH[_card] = (2.5 + _extra, 10.5 + _extra)
    else:
        _WORTH[_card] = (POINTS[_card] / 20.0, POINTS[_card] / 20.0)


def chosen_by_basic(hand: Sequence[str], choice: Choice) -> bool:
    """Whether the basic player holding ``hand`` then would have played ``choice.card`` (as
    ``choice.color``): no other card of ``hand`` that plays scores higher."""
    counts = dict.fromkeys(COLORS, 0)
    for card in hand:
        color = COLOR_OF[card]
        if color is not None:
            counts[color] += 1
    danger = 1 if choice.danger else 0
    played = choice.card
    if played in WILDS:
        worth = _WORTH[played][danger] + 3 * counts[choice.color]
    else:
        worth = _WORTH[played][danger] + 2 * (counts[choice.color] - 1)
    most = max(counts.values())
    before, top_rank = choice.before, choice.top_rank
    for card in hand:
        if card == played:
            continue
        color = COLOR_OF[card]
        if color is None:
            best = _WORTH[card][danger] + 3 * most
        elif color != before and RANK_OF[card] != top_rank:
            continue
        elif choice.swaps and RANK_OF[card] in ("7", "0"):
            continue  # its worth hangs on the hands it would take: no telling
        else:
            best = _WORTH[card][danger] + 2 * (counts[color] - 1)
        if best > worth + 1e-9:
            return False
    return True


def agrees(hand: Sequence[str], choices: Sequence[Choice]) -> bool:
    """Whether a hand a seat may hold now agrees with the cards it chose to play since it last
    drew, had it played as the basic player plays (the hand then: this one, the card, and the
    cards played after it)."""
    return all(chosen_by_basic([*hand, c.card, *c.since], c) for c in choices)


# The house rules under which the basic player's choices read as under the official rules (a
# choice under stacking or seven_zero is read only where those rules play no part in it).
_READABLE = frozenset(
    {"stacking", "jump_in", "seven_zero", "uno_penalty", "bluff_penalty", "scoring"}
)


@functools.lru_cache(maxsize=64)
def _readable(options: Options) -> bool:
    rules = options.rules()
    return not options.teams and all(
        not value for name, value in rules.items() if name not in _READABLE
    )


def _a_choice(options: Options, top: str, card: str) -> bool:
    """Whether a one-card play from a seat's own turn is a choice ``agrees`` reads: under the
    official rules, and not a card stacked on a draw card, nor a 7 or 0 of seven_zero."""
    if not _readable(options):
        return False
    if options.stacking and (top == WILD_DRAW4 or RANK_OF[top] == "draw2"):
        return False
    return not (options.seven_zero and RANK_OF[card] in ("7", "0"))


def _after(seat: int, direction: int, statuses: Sequence[str]) -> int:
    """The seat after ``seat`` in ``direction`` among those playing."""
    n = len(statuses)
    nxt = (seat + direction) % n
    while statuses[nxt] != "playing" and nxt != seat:
        nxt = (nxt + direction) % n
    return nxt


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
    k.prefers = [[] for _ in range(players)]
    statuses = ["playing"] * players
    color: str | None = None
    # For the choices a seat made: the hand counts, the direction, and the seat that just drew
    # (its play now is the drawn card's, no choice).
    counts = [0] * players
    direction = 1
    drew_last: int | None = None
    for item in events:
        kind, who, data = item["type"], item["seat"], item["data"]
        if kind == "game_started":
            k.options = options_from_data(data["options"])
        elif kind == "round_started":
            k.discard = []
            k.known = [[] for _ in range(players)]
            k.known[seat] = list(data.get("hand") or [])
            k.voids = [{} for _ in range(players)]
            k.prefers = [[] for _ in range(players)]
            statuses = ["playing" if s == "out" else s for s in statuses]
            counts = [7 if s in data["seats"] else 0 for s in range(players)]
            direction = 1
        elif kind == "starter_turned":
            k.discard = [data["card"]]
            color = COLOR_OF[data["card"]]
            if RANK_OF[data["card"]] == "reverse":
                direction = -direction
        elif kind == "card_played" and who is not None:
            top = k.discard[-1] if k.discard else None
            k.discard += data["cards"]
            last = data["cards"][-1]
            if last in WILDS and color is not None:
                # A wild is kept for when nothing else plays, and a wild-draw4 is legal only
                # without the colour in play: take the seat to have held none of it (the
                # challenge it may get is this seat's bet that it did).
                k.voids[who][color] = 0
            for choice in k.prefers[who]:
                choice.since += data["cards"]
            chose = not (data.get("jump_in") or data.get("auto") or drew_last == who)
            drew_last = None
            if chose and color is not None and top is not None and _a_choice(k.options, top, last):
                danger = counts[_after(who, direction, statuses)] <= 2
                shown = Choice(last, data["color"], color, RANK_OF[top], danger)
                shown.swaps = k.options.seven_zero
                k.prefers[who].append(shown)
            counts[who] -= len(data["cards"])
            if RANK_OF[last] == "reverse":
                direction = -direction
            color = data["color"]
            _remove(k.known[who], data["cards"])
            voids = k.voids[who]
            for card in data["cards"]:
                for suit in SUITS[card]:
                    if suit in voids:  # it came from the cards taken since the draw
                        voids[suit] = max(voids[suit] - 1, 0)
        elif kind == "color_chosen":
            color = data["color"]
        elif kind == "cards_drawn" and who is not None:
            count = data.get("count", len(data.get("cards") or []))
            k.prefers[who] = []  # the cards it takes blur what its plays said
            counts[who] += count
            drew_last = who if data["reason"] == "draw" else None
            voids = k.voids[who]
            for suit in voids:
                voids[suit] += count
            if data["reason"] == "draw" and color is not None and not data.get("auto"):
                voids[color] = count
                voids["wild"] = count
                top = k.discard[-1] if k.discard else None
                if top is not None and top not in WILDS:  # nor a card of the top card's rank
                    voids["#" + RANK_OF[top]] = count
            if who == seat:
                k.known[seat] += data.get("cards") or []
        elif kind == "pile_reshuffled":
            k.discard = k.discard[-1:]
        elif kind == "challenged":
            if "hand" in data:
                k.known[data["target"]] = list(data["hand"])
            if data["guilty"]:  # it held the colour after all, and the colour goes back to it
                color = data["color"]
                k.voids[data["target"]].pop(color, None)
        elif kind == "hands_swapped" and who is not None:
            target = data["target"]
            k.known[who], k.known[target] = k.known[target], k.known[who]
            k.voids[who], k.voids[target] = k.voids[target], k.voids[who]
            k.prefers = [[] for _ in range(players)]
            counts[who], counts[target] = counts[target], counts[who]
        elif kind == "hands_rotated":
            order = _holders(statuses)
            if data["direction"] < 0:
                order.reverse()
            before, voids_before, counts_before = list(k.known), list(k.voids), list(counts)
            for index, s in enumerate(order):
                k.known[order[(index + 1) % len(order)]] = before[s]
                k.voids[order[(index + 1) % len(order)]] = voids_before[s]
                counts[order[(index + 1) % len(order)]] = counts_before[s]
            k.prefers = [[] for _ in range(players)]
        elif kind == "went_out" and who is not None:
            statuses[who] = "out"
        elif kind == "forfeited" and who is not None:
            statuses[who] = "forfeited"
            k.known[who] = []
            k.voids[who] = {}
            k.prefers[who] = []
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
