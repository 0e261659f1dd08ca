"""A fast playout of one round to its end, for the search player's worlds only.

The search player (``bots.strong``) decides its move with the engine (``rules.act``: the move it
sends is always one ``legal_actions`` lists), then plays the rest of each sampled world out to the
end of the round here: plain lists, no events, no frozen states. The playout models the official
rules and the house rules ``stacking``, ``jump_in`` and ``seven_zero`` (``supports``); a world
under other rules is played on by the engine instead. It is a model, not the rules: every seat
says UNO, a wild-draw4 is never challenged in it, and a seat plays by ``_choose``, a cheap cousin
of the basic player. Only the search's estimates depend on it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from games.engine.cards import COLOR_OF, COLORS, NUMBER_CARDS, POINTS, RANK_OF, WILD_DRAW4, WILDS
from games.engine.options import Options
from games.engine.state import GameState

# The house rules the playout models; any other rule in play sends a world to the engine.
MODELLED = frozenset({"stacking", "jump_in", "seven_zero"})
_IGNORED = frozenset({"uno_penalty", "bluff_penalty", "scoring"})  # no effect in a playout
MAX_MOVES = 400  # a round this long is cut off and valued by its hands


@functools.lru_cache(maxsize=64)
def supports(options: Options) -> bool:
    """Whether the playout models every rule of ``options``."""
    rules = options.rules()
    return not options.teams and all(
        not value for name, value in rules.items() if name not in MODELLED | _IGNORED
    )


class Round:
    """A round in progress as plain lists: the hands, the draw pile (drawn from its end), the
    cards under the top card, the top card, the colour in play, whose move, the direction, and a
    stacked penalty the seat to move owes."""

    __slots__ = (
        "color",
        "current",
        "direction",
        "hands",
        "jump_in",
        "owed",
        "owed_wd4",
        "pile",
        "players",
        "playing",
        "rng",
        "seven_zero",
        "stacking",
        "top",
        "under",
    )

    def __init__(self, state: GameState, rng: random.Random) -> None:
        options = state.options
        self.hands = [list(hand) for hand in state.hands]
        self.pile = list(reversed(state.draw_pile))
        self.under = list(state.discard_pile[:-1])
        self.top = state.discard_pile[-1]
        self.color = state.color or COLORS[0]
        self.current = state.current
        self.direction = state.direction
        self.owed = 0
        self.owed_wd4 = False
        self.playing = [s for s in range(state.players) if state.statuses[s] == "playing"]
        self.players = state.players
        self.stacking = options.stacking
        self.jump_in = options.jump_in
        self.seven_zero = options.seven_zero
        self.rng = rng
        pending = state.pending
        if pending is None:
            return
        self.current = pending.seat
        if pending.kind == "color":
            self.color = _most_held(self.hands[pending.seat])
        elif pending.kind in ("wild_draw4", "draw_penalty"):
            self.owed = pending.amount
            self.owed_wd4 = pending.draw_card == WILD_DRAW4
        # play_drawn: the seat plays as on a turn of its own (it holds the drawn card).

    # --- seats and cards -------------------------------------------------------------------

    def next_seat(self, seat: int, steps: int = 1) -> int:
        playing = self.playing
        count = len(playing)
        if count == self.players:  # every seat plays: the common case, and the quick one
            return (seat + steps * self.direction) % count
        index = playing.index(seat) if seat in playing else 0
        return playing[(index + steps * self.direction) % count]

    def draw(self, seat: int, count: int) -> str | None:
        """``seat`` draws ``count`` cards (fewer if both piles run out); the last one drawn."""
        card = None
        hand = self.hands[seat]
        pile = self.pile
        for _ in range(count):
            if not pile:
                if not self.under:
                    break
                pile.extend(self.under)
                self.under = []
                self.rng.shuffle(pile)
            card = pile.pop()
            hand.append(card)
        return card

    def fits(self, card: str) -> bool:
        return card in WILDS or COLOR_OF[card] == self.color or RANK_OF[card] == RANK_OF[self.top]

    # --- playing ---------------------------------------------------------------------------

    def play(self, seat: int, card: str, color: str | None) -> bool:
        """``seat`` plays ``card`` (a wild as ``color``); True when it went out."""
        hand = self.hands[seat]
        hand.remove(card)
        self.under.append(self.top)
        self.top = card
        self.color = color if color is not None else COLOR_OF[card]  # type: ignore[assignment]
        if not hand:
            return True
        rank = RANK_OF[card]
        if rank == "skip":
            self.current = self.next_seat(seat, 2)
        elif rank == "reverse":
            self.direction = -self.direction
            self.current = seat if len(self.playing) == 2 else self.next_seat(seat)
        elif rank == "draw2" or card == WILD_DRAW4:
            amount = self.owed + (4 if card == WILD_DRAW4 else 2)
            victim = self.next_seat(seat)
            if self.stacking:
                self.owed, self.owed_wd4 = amount, card == WILD_DRAW4
                self.current = victim
            else:
                self.draw(victim, amount)
                self.current = self.next_seat(victim)
        else:
            self.current = self.next_seat(seat)
            if self.seven_zero and rank == "7":
                target = min((s for s in self.playing if s != seat), key=self._size)
                self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            elif self.seven_zero and rank == "0":
                order = self.playing if self.direction > 0 else self.playing[::-1]
                before = list(self.hands)
                for index, s in enumerate(order):
                    self.hands[order[(index + 1) % len(order)]] = before[s]
        return False

    def _size(self, seat: int) -> int:
        return len(self.hands[seat])

    def jumper(self) -> int | None:
        """A seat that jumps in on the top card (every seat does when it can), if any."""
        top = self.top
        if top not in NUMBER_CARDS:
            return None
        for seat in self.playing:
            if seat != self.current and top in self.hands[seat]:
                return seat
        return None

    def run(self, max_moves: int = MAX_MOVES) -> int | None:
        """Play the round out: the seat that went out, or None when it was cut off."""
        for _ in range(max_moves):
            seat = self.current
            hand = self.hands[seat]
            if self.owed:
                card = self._stack_card(hand)
                if card is None:
                    self.draw(seat, self.owed)
                    self.owed = 0
                    self.current = self.next_seat(seat)
                    continue
                if self._play_stacked(seat, card):
                    return seat
                continue
            choice = _choose(self, seat, hand)
            if choice is None:
                drawn = self.draw(seat, 1)
                if drawn is not None and self.fits(drawn) and _plays_drawn(self, seat, drawn):
                    choice = (drawn, _color_for(hand, drawn))
                else:
                    self.current = self.next_seat(seat)
                    continue
            if self.play(seat, choice[0], choice[1]):
                return seat
            if self.jump_in and not self.owed:
                jumper = self.jumper()
                while jumper is not None:
                    if self.play(jumper, self.top, None):
                        return jumper
                    jumper = self.jumper()
        return None

    def _stack_card(self, hand: Sequence[str]) -> str | None:
        if not self.stacking:
            return None
        best = None
        for card in hand:
            if card == WILD_DRAW4:
                best = best or card
            elif RANK_OF[card] == "draw2" and (not self.owed_wd4 or COLOR_OF[card] == self.color):
                return card  # a draw2 before a wild-draw4
        return best

    def _play_stacked(self, seat: int, card: str) -> bool:
        owed = self.owed
        self.owed = 0
        color = _most_held(self.hands[seat]) if card == WILD_DRAW4 else None
        hand = self.hands[seat]
        hand.remove(card)
        self.under.append(self.top)
        self.top = card
        self.color = color if color is not None else COLOR_OF[card]  # type: ignore[assignment]
        if not hand:
            return True
        self.owed = owed + (4 if card == WILD_DRAW4 else 2)
        self.owed_wd4 = card == WILD_DRAW4
        self.current = self.next_seat(seat)
        return False


def _most_held(hand: Sequence[str]) -> str:
    counts = dict.fromkeys(COLORS, 0)
    for card in hand:
        color = COLOR_OF[card]
        if color is not None:
            counts[color] += 1
    return max(COLORS, key=counts.__getitem__)


def _color_for(hand: Sequence[str], card: str) -> str | None:
    return _most_held([c for c in hand if c != card]) if card in WILDS else None


def _plays_drawn(sim: Round, seat: int, card: str) -> bool:
    if card not in WILDS:
        return True
    return len(sim.hands[seat]) <= 2 or min(sim._size(s) for s in sim.playing if s != seat) <= 2


_SHED = {card: POINTS[card] / 20.0 for card in COLOR_OF}
_ATTACK = frozenset(card for card in COLOR_OF if RANK_OF[card] in ("skip", "reverse", "draw2"))


def _choose(sim: Round, seat: int, hand: list[str]) -> tuple[str, str | None] | None:
    """The playout's card for ``seat``: like the basic player, the colour it holds most of,
    action cards against a seat about to go out, wilds only when nothing else plays."""
    color = sim.color
    top_rank = RANK_OF[sim.top]
    color_of = COLOR_OF
    rank_of = RANK_OF
    playable = [
        card
        for card in hand
        if card in WILDS or color_of[card] == color or rank_of[card] == top_rank
    ]
    if not playable:
        return None
    counts = dict.fromkeys(COLORS, 0)
    for card in hand:
        c = color_of[card]
        if c is not None:
            counts[c] += 1
    best: str | None = None
    best_score = -1e9
    wild: str | None = None
    attack = 0.0
    for card in playable:
        if card in WILDS:
            if wild is None or card == WILD_DRAW4:
                wild = card
            continue
        score = 2.0 * counts[color_of[card]] + _SHED[card]  # type: ignore[index]
        if card in _ATTACK:
            if not attack:
                attack = 9.5 if len(sim.hands[sim.next_seat(seat)]) <= 2 else 1.5
            score += attack
        if score > best_score:
            best, best_score = card, score
    if best is not None:
        return best, None
    assert wild is not None  # a card plays, and it is no coloured one
    return wild, max(COLORS, key=counts.__getitem__)


def playout(state: GameState, rng: random.Random) -> int | None:
    """The seat that goes out first when ``state``'s round is played out (None: cut off)."""
    return Round(state, rng).run()
