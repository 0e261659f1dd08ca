"""The official rules of classic UNO, page by page: cards, seats, the deal and the starter card.

Each test is a scenario from /work/shared/rules.md: a docstring quoting the rule, the hands as
dealt and the order of the draw pile, the moves, and what a player at the table would notice.
The other pages live next door:

- ``test_official_turn.py``: matching, refusals, drawing, the action cards;
- ``test_official_wild_draw4.py``: the legality of a wild-draw4, bluffs and challenges;
- ``test_official_uno.py``: saying UNO and catching;
- ``test_official_round.py``: running out of cards to draw, the end of a round, scoring;
- ``test_official_time.py``: timeouts, forfeits and resigning;
- ``test_official_views.py``: what each seat may see.

This module also holds the small helpers those pages share. Every scenario's ``Table`` checks
after every step that the 108 cards are all still on the table: in the hands, the draw pile or
the discard pile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import (
    COLORS,
    DECK,
    GameState,
    IllegalMove,
    make_options,
    replay,
    resign,
    start_game,
    time_out,
)
from games.engine.cards import POINTS
from games.engine.events import Event
from tests.engine import decks
from tests.engine.decks import deck_for

# --- helpers shared by the test_official_* pages ----------------------------------------------


def assert_every_card_accounted(state: GameState) -> None:
    """Hands + draw pile + discard pile hold the 108 cards of the deck, each exactly once."""
    on_table: Counter[str] = Counter(state.draw_pile) + Counter(state.discard_pile)
    for hand in state.hands:
        on_table.update(hand)
    assert sum(on_table.values()) == 108
    assert on_table == Counter(DECK)


class Table(decks.Table):
    """``decks.Table`` that counts the cards after every step and knows the server's actions."""

    def __init__(self, hands: Sequence[Sequence[str]], starter: str, *args: Any, **kw: Any):
        super().__init__(hands, starter, *args, **kw)
        assert_every_card_accounted(self.state)

    def act(self, seat: int, action: str, **fields: Any) -> list[Event]:
        events = super().act(seat, action, **fields)
        assert_every_card_accounted(self.state)
        return events

    def refused(self, seat: int, action: str, **fields: Any) -> IllegalMove:
        """Act, expect a refusal, and check that nothing changed and nothing was logged."""
        before, logged = self.state, len(self.log)
        with pytest.raises(IllegalMove) as info:
            self.act(seat, action, **fields)
        assert self.state is before
        assert len(self.log) == logged
        return info.value

    def time_out(self) -> list[Event]:
        events, self.state = time_out(self.state)
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def resign(self, seat: int) -> list[Event]:
        events, self.state = resign(self.state, seat)
        self.log += events
        assert_every_card_accounted(self.state)
        return events

    def hand(self, seat: int) -> list[str]:
        return list(self.state.hands[seat])

    def draw_and_keep(self, seat: int) -> list[str]:
        """``seat`` draws one card on its turn and keeps it (passing if it could be played)."""
        events = self.act(seat, "draw")
        if self.state.pending is not None and self.state.pending.kind == "play_drawn":
            events += self.act(seat, "pass")
        return drawn(events, seat)

    def set_table(self, **changes: Any) -> None:
        """Lay the table out by hand ("given the draw pile holds one card ..."), cards kept."""
        self.state = self.state.evolve(**changes)
        assert_every_card_accounted(self.state)


def drawn(events: Sequence[Event], seat: int, reason: str | None = None) -> list[str]:
    """The cards ``seat`` drew in ``events`` (only for ``reason``, if given), in order."""
    return [
        card
        for e in events
        if e["type"] == "cards_drawn"
        and e["seat"] == seat
        and (reason is None or e["data"]["reason"] == reason)
        for card in e["data"]["cards"]
    ]


def types(events: Sequence[Event]) -> list[str]:
    return [e["type"] for e in events]


def the(events: Sequence[Event], type_: str) -> Event:
    """The one event of ``type_`` in ``events``."""
    found = [e for e in events if e["type"] == type_]
    assert len(found) == 1, f"expected one {type_} event in {types(events)}"
    return found[0]


def points(cards: Sequence[str]) -> int:
    return sum(POINTS[c] for c in cards)


# Hands that do nothing but sit there: nobody in these scenarios plays them unless told to.
IDLE_1 = ["blue-1", "blue-2", "blue-3", "blue-reverse", "wild", "wild-draw4", "green-7"]
IDLE_2 = ["yellow-1", "yellow-2", "yellow-skip", "yellow-draw2", "green-0", "blue-0", "wild"]


# --- Cards -----------------------------------------------------------------------------------


def test_the_deck_holds_108_cards_in_four_colours():
    """108 cards, four colours. Per colour one 0, two each of 1 to 9, skip, reverse, draw2;
    plus 4 wild and 4 wild-draw4. 4 x 25 + 8 = 108."""
    count = Counter(DECK)
    assert len(DECK) == 108
    for color in COLORS:
        assert count[f"{color}-0"] == 1
        for rank in [*map(str, range(1, 10)), "skip", "reverse", "draw2"]:
            assert count[f"{color}-{rank}"] == 2
        assert sum(n for card, n in count.items() if card.startswith(color)) == 25
    assert count["wild"] == 4
    assert count["wild-draw4"] == 4


def test_card_points():
    """Points, per card left in hands: 0-9 face value; skip, reverse, draw2 20; wilds 50."""
    assert [POINTS[f"green-{n}"] for n in range(10)] == list(range(10))
    assert POINTS["red-skip"] == POINTS["yellow-reverse"] == POINTS["blue-draw2"] == 20
    assert POINTS["wild"] == POINTS["wild-draw4"] == 50


# --- Deal ------------------------------------------------------------------------------------


def test_deal_seven_each_one_at_a_time_from_the_seat_after_the_dealer():
    """Deal: "Deal 7 cards, one at a time, starting with the player clockwise of the dealer and
    going clockwise, until everyone has 7." Seats: "In round 1 the dealer is the last seat, so
    seat 0 plays first." The draw pile is the given deck order, top card first."""
    deck = list(DECK)  # unshuffled: red-0, red-1, red-1, red-2, red-2, red-3, ...
    events = start_game(4, make_options(), seed=7, deck=deck)
    state = replay(events)

    started = the(events, "round_started")["data"]
    assert started["number"] == 1
    assert started["dealer"] == 3
    assert started["seats"] == [0, 1, 2, 3]
    # seat 0 takes the 1st, 5th, 9th ... card off the pile; seat 1 the 2nd, 6th, ...
    assert state.hands[0] == (
        "red-0",
        "red-2",
        "red-4",
        "red-6",
        "red-8",
        "red-skip",
        "red-draw2",
    )
    for seat in range(4):
        assert state.hands[seat] == tuple(deck[seat:28:4])
        assert len(state.hands[seat]) == 7
    # then the 29th card is turned face up, and seat 0 plays first
    assert the(events, "starter_turned")["data"]["card"] == deck[28] == "yellow-2"
    assert state.top_card == "yellow-2"
    assert state.color == "yellow"
    assert state.current == 0
    assert state.direction == 1
    assert state.draw_pile == tuple(deck[29:])
    assert_every_card_accounted(state)


def test_deal_with_a_given_hand_order_for_three_players():
    """The test helper ``deck_for`` lays a deck out so that the deal gives the hands asked for:
    the same rule, read backwards."""
    hands = [
        ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"],
        IDLE_1,
        IDLE_2,
    ]
    t = Table(hands, "green-5")
    assert t.hand(0) == hands[0]
    assert t.hand(1) == IDLE_1
    assert t.hand(2) == IDLE_2
    assert t.state.dealer == 2
    assert t.state.current == 0


# --- The starter card ------------------------------------------------------------------------

HANDS_3 = [
    ["red-1", "red-5", "blue-3", "green-3", "yellow-9", "red-skip", "wild"],
    IDLE_1,
    IDLE_2,
]


def test_starter_wild_draw4_goes_back_to_the_bottom_of_a_given_deck():
    """Deal 3: "`wild-draw4`: put it back into the draw pile at a random position (the
    given-deck case: at the bottom) and turn the next one." Twice in a row, twice to the bottom."""
    draws = ["wild-draw4", "green-5"]
    deck = deck_for(HANDS_3, "wild-draw4", draws)
    t = Table(HANDS_3, "wild-draw4", draws)

    returned = [e for e in t.log if e["type"] == "starter_returned"]
    assert len(returned) == 2
    assert all(e["data"]["card"] == "wild-draw4" for e in returned)
    assert the(t.log, "starter_turned")["data"]["card"] == "green-5"
    assert t.state.top_card == "green-5"
    assert t.state.color == "green"
    assert t.state.current == 0
    # the rest of the pile, then the two wild-draw4s at the bottom
    assert t.state.draw_pile == (*deck[24:], "wild-draw4", "wild-draw4")
    # "at the bottom": under all the 108 - 21 dealt - 1 cards left
    assert [e["data"]["position"] for e in returned] == [86, 86]


def test_starter_wild_the_first_player_names_the_colour_then_plays():
    """Deal 3: "`wild`: the first player (clockwise of the dealer) names the colour, then plays
    normally." Until the colour is named nothing else goes: not a play, not a draw."""
    t = Table(HANDS_3, "wild")
    assert t.state.top_card == "wild"
    assert t.state.color is None
    assert t.state.pending is not None and t.state.pending.kind == "color"
    assert t.state.actor == 0

    error = t.refused(0, "play", card="red-5")
    assert (error.code, error.status) == ("color_required", 422)
    assert t.refused(0, "draw").code == "color_required"
    assert t.refused(1, "color", color="red").code == "not_your_turn"
    error = t.refused(0, "color", color="purple")
    assert (error.code, error.status) == ("invalid", 400)

    events = t.act(0, "color", color="blue")
    assert types(events) == ["color_chosen", "turn_changed"]
    assert t.state.color == "blue"
    assert t.state.pending is None
    assert t.state.current == 0  # still seat 0: now it plays normally
    assert t.refused(0, "play", card="red-5").code == "illegal_card"
    t.act(0, "play", card="blue-3")
    assert t.state.top_card == "blue-3"
    assert t.state.current == 1


def test_starter_skip_the_first_player_is_skipped():
    """Deal 3: "`skip`: the first player is skipped; the one after plays." """
    t = Table(HANDS_3, "red-skip")
    assert t.state.top_card == "red-skip"
    assert t.state.color == "red"
    assert t.state.current == 1
    assert [len(h) for h in t.state.hands] == [7, 7, 7]
    assert t.refused(0, "play", card="red-5").code == "not_your_turn"
    t.act(1, "play", card="wild", color="red")
    assert t.state.current == 2


def test_starter_reverse_the_dealer_plays_first_and_play_goes_the_other_way():
    """Deal 3: "`reverse`: the direction is reversed and the dealer plays first." With three
    seats the dealer of round 1 is seat 2; after it, seat 1."""
    t = Table(HANDS_3, "yellow-reverse")
    assert t.state.direction == -1
    assert t.state.dealer == 2
    assert t.state.current == 2
    t.act(2, "play", card="yellow-1")
    assert t.state.current == 1


def test_starter_draw2_the_first_player_draws_two_and_is_skipped():
    """Deal 3: "`draw2`: the first player draws 2 and is skipped." """
    t = Table(HANDS_3, "green-draw2", ["blue-7", "yellow-4"])
    assert drawn(t.log, 0) == ["blue-7", "yellow-4"]
    assert the(t.log, "cards_drawn")["data"]["reason"] == "starter"
    assert t.hand(0) == [*HANDS_3[0], "blue-7", "yellow-4"]
    assert t.state.top_card == "green-draw2"
    assert t.state.color == "green"
    assert t.state.current == 1


def test_starter_number_play_starts_with_the_first_player():
    """Deal 3: "a number: play starts with the first player." """
    t = Table(HANDS_3, "yellow-6")
    assert t.state.top_card == "yellow-6"
    assert t.state.color == "yellow"
    assert t.state.current == 0
    assert t.state.direction == 1
    assert t.state.pending is None
    assert [len(h) for h in t.state.hands] == [7, 7, 7]


# --- the red run: seat 0 plays its seven red cards while the others draw ---------------------

RED_RUN = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]
# Twelve cards that go on none of red 1 to 7: seats 1 and 2 draw them in turn and keep them.
UNPLAYABLE = ["yellow-8", "green-8", "blue-8", "yellow-9", "green-9", "blue-9"] * 2


def red_run(
    last: str = "red-7", after: Sequence[str] = (), rounds: int = 6, **options: Any
) -> Table:
    """Three seats. Seat 0 holds red 1 to 6 and ``last``; seats 1 and 2 hold IDLE_1 and IDLE_2.
    The starter is a red 9; the draw pile starts with the first ``rounds`` pairs of UNPLAYABLE
    (what seats 1 and 2 draw while seat 0 plays its first ``rounds`` cards), then ``after``."""
    draws = [*UNPLAYABLE[: 2 * rounds], *after]
    return Table([[*RED_RUN[:6], last], IDLE_1, IDLE_2], "red-9", draws, **options)


def seat_0_plays(t: Table, card: str, **fields: Any) -> list[Event]:
    """Seat 0 plays ``card``; then, unless the round is over, seats 1 and 2 each draw a card that
    does not fit and keep it."""
    events = t.act(0, "play", card=card, **fields)
    if t.state.round_number == 1 and t.state.current == 1:
        for seat in (1, 2):
            assert t.state.current == seat
            events += t.act(seat, "draw")
            assert t.state.pending is None  # the card drawn did not fit: the turn ended
    return events


def red_run_to(t: Table, cards_left: int) -> None:
    """Play the red run until seat 0 holds ``cards_left`` cards (the others drawing between)."""
    for card in RED_RUN[: 7 - cards_left]:
        seat_0_plays(t, card)
    assert len(t.hand(0)) == cards_left
