"""A fast playout of one round to its end, for the search player's worlds only.

The search player (``bots.strong``) decides its move with the engine (``rules.act``: the move it
sends is always one ``legal_actions`` lists), then plays the rest of each sampled world out to the
end of the round here: plain lists of small integers, no events, no frozen states. The playout
models the official rules and the house rules ``stacking``, ``jump_in`` and ``seven_zero``
(``supports``); a world under other rules is played on by the engine instead. It is a model, not
the rules: every seat says UNO, and a seat plays by ``_choose``, a cheap cousin of the basic
player (no seat bluffs a wild-draw4 in it). A wild-draw4 the search played is answered as the
basic player answers it (``_answer``): a challenge when the odds that it was a bluff pass
``basic.CHALLENGE_ODDS``. Only the search's estimates depend on it.

A card is ``colour * 16 + rank`` (``card_id``): colours 0-3 in ``COLORS`` order, ranks 0-9 the
numbers, then skip, reverse and draw2; the wilds have colour 4 and ranks 13 and 14. So a card's
colour is ``card >> 4`` and its rank ``card & 15`` with no lookup, and a card's table entry is one
list index.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from games.engine.bots.basic import BLUFF_DISCOUNT, CHALLENGE_ODDS
from games.engine.cards import COLOR_OF, COLORS, NUMBERS, POINTS, RANK_OF, WILD, WILD_DRAW4
from games.engine.options import Options
from games.engine.state import GameState

# The house rules the playout models; any other rule in play sends a world to the engine.
MODELLED = frozenset({"stacking", "jump_in", "seven_zero"})
_IGNORED = frozenset({"uno_penalty", "bluff_penalty", "scoring"})  # no effect in a playout
MAX_MOVES = 400  # a round this long is cut off and valued by its hands

_RANKS: Final = (*NUMBERS, "skip", "reverse", "draw2", WILD, WILD_DRAW4)
SKIP: Final = 10
REVERSE: Final = 11
DRAW2: Final = 12
WILD_ID: Final = 4 * 16 + 13
WILD_DRAW4_ID: Final = 4 * 16 + 14
_SIZE: Final = WILD_DRAW4_ID + 1


def card_id(code: str) -> int:
    """The playout's integer for a card code."""
    if code == WILD:
        return WILD_ID
    if code == WILD_DRAW4:
        return WILD_DRAW4_ID
    return COLORS.index(COLOR_OF[code]) * 16 + _RANKS.index(RANK_OF[code])


ID: Final[dict[str, int]] = {code: card_id(code) for code in COLOR_OF}
CODE: Final[list[str]] = [""] * _SIZE
for _code, _id in ID.items():
    CODE[_id] = _code
COLOR_ID: Final[dict[str, int]] = {color: index for index, color in enumerate(COLORS)}
# By card: the basic player's small preferences among cards of equal colour count: points shed,
# and a draw2 over a skip or reverse.
_BONUS: Final[list[float]] = [0.0] * _SIZE
_ATTACK: Final[list[bool]] = [False] * _SIZE  # skip, reverse, draw2: held back for a seat near out
_NUMBER: Final[list[bool]] = [False] * _SIZE  # a number card: one a seat may jump in with
for _code, _id in ID.items():
    _BONUS[_id] = POINTS[_code] / 20.0 + (1.0 if _id & 15 == DRAW2 and _id < 64 else 0.0)
    _ATTACK[_id] = _id < 64 and _id & 15 >= SKIP
    _NUMBER[_id] = _id < 64 and _id & 15 < SKIP


def ids(cards: Iterable[str]) -> list[int]:
    return [ID[card] for card in cards]


def codes(cards: Iterable[int]) -> list[str]:
    return [CODE[card] for card in cards]


class Shuffles(Protocol):
    """What a playout asks of its random source: a shuffle of the discards when the draw pile
    runs out."""

    def shuffle(self, x: list[int]) -> None: ...


class LazyRandom:
    """A random source seeded from ``seed`` when first used: most playouts never reshuffle, and
    seeding a ``random.Random`` costs as much as a tenth of a playout."""

    __slots__ = ("_rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    def shuffle(self, x: list[int]) -> None:
        if self._rng is None:
            self._rng = random.Random(self.seed)
        self._rng.shuffle(x)


@functools.lru_cache(maxsize=64)
def supports(options: Options) -> bool:
    """Whether the playout models every rule of ``options``."""
    rules = options.rules()
    return not options.teams and all(
        not value for name, value in rules.items() if name not in MODELLED | _IGNORED
    )


class Round:
    """A round in progress as plain lists of card integers: the hands, the draw pile (drawn from
    its end), the cards under the top card, the top card, the colour in play, whose move, the
    direction, and a stacked penalty the seat to move owes."""

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

    def __init__(self, state: GameState, rng: Shuffles) -> None:
        options = state.options
        index = ID
        self.hands = [[index[c] for c in hand] for hand in state.hands]
        self.pile = [index[c] for c in reversed(state.draw_pile)]
        self.under = [index[c] for c in state.discard_pile[:-1]]
        self.top = index[state.discard_pile[-1]]
        self.color = COLOR_ID[state.color] if state.color is not None else 0
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
            if pending.kind == "wild_draw4" and pending.from_seat is not None:
                self._answer(pending.seat, pending.from_seat, pending.previous_color, options)
        # play_drawn: the seat plays as on a turn of its own (it holds the drawn card).

    # --- seats and cards -------------------------------------------------------------------

    def next_seat(self, seat: int, steps: int = 1) -> int:
        playing = self.playing
        count = len(playing)
        if count == self.players:  # every seat plays: the common case, and the quick one
            return (seat + steps * self.direction) % count
        index = playing.index(seat) if seat in playing else 0
        return playing[(index + steps * self.direction) % count]

    def draw(self, seat: int, count: int) -> int | None:
        """``seat`` draws ``count`` cards (fewer if both piles run out); the last one drawn."""
        card = None
        hand = self.hands[seat]
        pile = self.pile
        for _ in range(count):
            if not pile:
                if not self.under:
                    break
                pile.extend(self.under)
                self.under.clear()
                self.rng.shuffle(pile)
            card = pile.pop()
            hand.append(card)
        return card

    def fits(self, card: int) -> bool:
        return card >= 64 or card >> 4 == self.color or card & 15 == self.top & 15

    def cards(self) -> list[str]:
        """Every card of the round, as codes: the hands, both piles and the top card."""
        held = [card for hand in self.hands for card in hand]
        return codes([*held, *self.pile, *self.under, self.top])

    # --- a wild-draw4 the search played ----------------------------------------------------

    def _answer(self, seat: int, culprit: int, previous: str | None, options: Options) -> None:
        """``seat`` answers a wild-draw4 from ``culprit`` as the basic player does: it stacks
        when it can (``run`` does that), else challenges when the odds that ``culprit`` still
        holds ``previous`` (the colour's share of the cards ``seat`` cannot see) pass
        ``CHALLENGE_ODDS``, else takes the cards."""
        if previous is None or self._stack_card(self.hands[seat]) is not None:
            return
        color = COLOR_ID[previous]
        unseen = [card for s in self.playing if s != seat for card in self.hands[s]] + self.pile
        if not unseen:
            return
        share = sum(1 for card in unseen if card >> 4 == color) / len(unseen)
        held = len(self.hands[culprit])
        if BLUFF_DISCOUNT * (1.0 - (1.0 - share) ** held) <= CHALLENGE_ODDS:
            return
        owed, self.owed = self.owed, 0
        if any(card >> 4 == color for card in self.hands[culprit]):
            self.draw(culprit, options.bluff_penalty)  # guilty: the challenger plays on
        else:
            self.draw(seat, owed + 2)
            self.current = self.next_seat(seat)

    # --- playing ---------------------------------------------------------------------------

    def play(self, seat: int, card: int, color: int) -> bool:
        """``seat`` plays ``card`` (a wild as ``color``); True when it went out."""
        hand = self.hands[seat]
        hand.remove(card)
        self.under.append(self.top)
        self.top = card
        self.color = color if card >= 64 else card >> 4
        if not hand:
            return True
        rank = card & 15
        if rank == SKIP:
            self.current = self.next_seat(seat, 2)
        elif rank == REVERSE:
            self.direction = -self.direction
            self.current = seat if len(self.playing) == 2 else self.next_seat(seat)
        elif rank == DRAW2 or card == WILD_DRAW4_ID:
            amount = self.owed + (4 if card == WILD_DRAW4_ID else 2)
            victim = self.next_seat(seat)
            if self.stacking:
                self.owed, self.owed_wd4 = amount, card == WILD_DRAW4_ID
                self.current = victim
            else:
                self.draw(victim, amount)
                self.current = self.next_seat(victim)
        else:
            self.current = self.next_seat(seat)
            if self.seven_zero and rank == 7:
                target = min((s for s in self.playing if s != seat), key=self._size)
                self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            elif self.seven_zero and rank == 0:
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
        if not _NUMBER[top]:
            return None
        for seat in self.playing:
            if seat != self.current and top in self.hands[seat]:
                return seat
        return None

    def run(self, max_moves: int = MAX_MOVES) -> int | None:
        """Play the round out: the seat that went out, or None when it was cut off."""
        if len(self.playing) == self.players and not (
            self.stacking or self.jump_in or self.seven_zero
        ):
            return self.run_official(max_moves)
        return self.run_modelled(max_moves)

    def run_official(self, max_moves: int = MAX_MOVES) -> int | None:
        """``run_modelled`` under the official rules with every seat playing, in one loop with
        its locals (the search's hot path: about three times as quick): the same moves, the same
        draws from the same random source."""
        if self.owed:
            self.draw(self.current, self.owed)
            self.owed = 0
            self.current = self.next_seat(self.current)
        hands, pile, under, rng = self.hands, self.pile, self.under, self.rng
        players, two = self.players, self.players == 2
        seat, top, color, direction = self.current, self.top, self.color, self.direction
        bonus, attacks = _BONUS, _ATTACK
        winner = None
        for _ in range(max_moves):
            hand = hands[seat]
            top_rank = top & 15
            counts = [0, 0, 0, 0, 0]
            for card in hand:
                counts[card >> 4] += 1
            best = -1
            best_score = -1e9
            wild = -1
            attack = 0.0
            for card in hand:
                if card >= 64:
                    if card > wild:
                        wild = card
                    continue
                if card >> 4 != color and card & 15 != top_rank:
                    continue
                score = 2.0 * counts[card >> 4] + bonus[card]
                if attacks[card]:
                    if not attack:
                        near = len(hands[(seat + direction) % players]) <= 2
                        attack = 9.5 if near else 1.5
                    score += attack
                if score > best_score:
                    best, best_score = card, score
            if best < 0:
                best = wild
            if best < 0:  # nothing plays: draw one, and play it if it fits
                if not pile and under:
                    pile.extend(under)
                    under.clear()
                    rng.shuffle(pile)
                if pile:
                    drawn = pile.pop()
                    hand.append(drawn)
                    if drawn >= 64:
                        if len(hand) <= 2 or any(
                            len(hands[s]) <= 2 for s in range(players) if s != seat
                        ):
                            best = drawn
                    elif drawn >> 4 == color or drawn & 15 == top_rank:
                        best = drawn
                if best < 0:
                    seat = (seat + direction) % players
                    continue
            hand.remove(best)
            under.append(top)
            top = best
            if best >= 64:
                color = 0
                for other in (1, 2, 3):
                    if counts[other] > counts[color]:
                        color = other
            else:
                color = best >> 4
            if not hand:
                winner = seat
                break
            rank = best & 15
            if rank == SKIP:
                seat = (seat + 2 * direction) % players
            elif rank == REVERSE:
                direction = -direction
                if not two:
                    seat = (seat + direction) % players
            elif rank == DRAW2 or best == WILD_DRAW4_ID:
                victim = (seat + direction) % players
                self.draw(victim, 4 if best == WILD_DRAW4_ID else 2)
                seat = (victim + direction) % players
            else:
                seat = (seat + direction) % players
        self.current, self.top, self.color, self.direction = seat, top, color, direction
        return winner

    def run_modelled(self, max_moves: int = MAX_MOVES) -> int | None:
        """Play the round out under any rules the playout models."""
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
            if choice < 0:
                drawn = self.draw(seat, 1)
                if drawn is not None and self.fits(drawn) and _plays_drawn(self, seat, drawn):
                    choice = drawn
                else:
                    self.current = self.next_seat(seat)
                    continue
            color = _most_held(hand) if choice >= 64 else -1
            if self.play(seat, choice, color):
                return seat
            if self.jump_in and not self.owed:
                jumper = self.jumper()
                while jumper is not None:
                    if self.play(jumper, self.top, -1):
                        return jumper
                    jumper = self.jumper()
        return None

    def _stack_card(self, hand: Sequence[int]) -> int | None:
        if not self.stacking:
            return None
        best = None
        for card in hand:
            if card == WILD_DRAW4_ID:
                best = best or card
            elif (
                card < 64 and card & 15 == DRAW2 and (not self.owed_wd4 or card >> 4 == self.color)
            ):
                return card  # a draw2 before a wild-draw4
        return best

    def _play_stacked(self, seat: int, card: int) -> bool:
        owed = self.owed
        self.owed = 0
        hand = self.hands[seat]
        hand.remove(card)
        self.under.append(self.top)
        self.top = card
        self.color = _most_held(hand) if card == WILD_DRAW4_ID else card >> 4
        if not hand:
            return True
        self.owed = owed + (4 if card == WILD_DRAW4_ID else 2)
        self.owed_wd4 = card == WILD_DRAW4_ID
        self.current = self.next_seat(seat)
        return False


def _most_held(hand: Sequence[int]) -> int:
    """The colour ``hand`` holds most of (its wilds have none), ties to the first colour."""
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[card >> 4] += 1
    best = 0
    for color in (1, 2, 3):
        if counts[color] > counts[best]:
            best = color
    return best


def _plays_drawn(sim: Round, seat: int, card: int) -> bool:
    if card < 64:
        return True
    return len(sim.hands[seat]) <= 2 or min(sim._size(s) for s in sim.playing if s != seat) <= 2


def _choose(sim: Round, seat: int, hand: list[int]) -> int:
    """The playout's card for ``seat`` (-1: none plays): like the basic player, the colour it
    holds most of, action cards against a seat about to go out, wilds only when nothing else
    plays (a wild-draw4 first)."""
    color = sim.color
    top_rank = sim.top & 15
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[card >> 4] += 1
    best = -1
    best_score = -1e9
    wild = -1
    attack = 0.0
    bonus = _BONUS
    for card in hand:
        if card >= 64:
            if card > wild:  # the wild-draw4 before the wild
                wild = card
            continue
        if card >> 4 != color and card & 15 != top_rank:
            continue
        score = 2.0 * counts[card >> 4] + bonus[card]
        if _ATTACK[card]:
            if not attack:
                attack = 9.5 if len(sim.hands[sim.next_seat(seat)]) <= 2 else 1.5
            score += attack
        if score > best_score:
            best, best_score = card, score
    return best if best >= 0 else wild


def playout(state: GameState, rng: Shuffles) -> int | None:
    """The seat that goes out first when ``state``'s round is played out (None: cut off)."""
    return Round(state, rng).run()
