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

This module also holds the small helpers those pages share. Every scenario's ``Scenario`` checks
after every step that the 108 cards are all still on the table: in the hands, the draw pile or
the discard pile.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import (
    COLORS,
    DECK,
    make_options,
    replay,
    start_game,
)
from games.engine.cards import POINTS
from tests.support.cards import assert_every_card_accounted
from tests.support.decks import deck_for
from tests.support.scenario import IDLE_1, IDLE_2, Scenario, drawn, the, types

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
    t = Scenario(hands, "green-5")
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
    t = Scenario(HANDS_3, "wild-draw4", draws)

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
    t = Scenario(HANDS_3, "wild")
    assert t.state.top_card == "wild"
    assert t.state.color is None
    assert t.state.pending is not None and t.state.pending.kind == "color"
    assert t.state.actor == 0

    error = t.refused(0, "play", card="red-5")
    assert error.code == "color_required"
    assert t.refused(0, "draw").code == "color_required"
    assert t.refused(1, "color", color="red").code == "not_your_turn"
    error = t.refused(0, "color", color="purple")
    assert error.code == "invalid"

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
    t = Scenario(HANDS_3, "red-skip")
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
    t = Scenario(HANDS_3, "yellow-reverse")
    assert t.state.direction == -1
    assert t.state.dealer == 2
    assert t.state.current == 2
    t.act(2, "play", card="yellow-1")
    assert t.state.current == 1


def test_starter_draw2_the_first_player_draws_two_and_is_skipped():
    """Deal 3: "`draw2`: the first player draws 2 and is skipped." """
    t = Scenario(HANDS_3, "green-draw2", ["blue-7", "yellow-4"])
    assert drawn(t.log, 0) == ["blue-7", "yellow-4"]
    assert the(t.log, "cards_drawn")["data"]["reason"] == "starter"
    assert t.hand(0) == [*HANDS_3[0], "blue-7", "yellow-4"]
    assert t.state.top_card == "green-draw2"
    assert t.state.color == "green"
    assert t.state.current == 1


def test_starter_number_play_starts_with_the_first_player():
    """Deal 3: "a number: play starts with the first player." """
    t = Scenario(HANDS_3, "yellow-6")
    assert t.state.top_card == "yellow-6"
    assert t.state.color == "yellow"
    assert t.state.current == 0
    assert t.state.direction == 1
    assert t.state.pending is None
    assert [len(h) for h in t.state.hands] == [7, 7, 7]


def test_starter_wild_draw4_goes_back_at_a_random_position_of_a_shuffled_deck():
    """Deal 3: "`wild-draw4`: put it back into the draw pile at a random position ... and turn
    the next one." With seed 55 the shuffled deck of three seats turns a wild-draw4 first: it
    goes back among the 86 cards left (position 39, drawn from the game's random source and
    written in the log) and the next card, a green 3, is the starter."""
    events = start_game(3, make_options(), seed=55)
    state = replay(events)
    deck = the(events, "round_started")["data"]["deck"]
    assert Counter(deck) == Counter(DECK)
    assert deck[21] == "wild-draw4"
    returned = the(events, "starter_returned")["data"]
    assert returned == {"card": "wild-draw4", "position": 39}
    rest = deck[22:]
    assert rest[0] == "green-3"
    assert the(events, "starter_turned")["data"]["card"] == "green-3"
    assert state.top_card == "green-3" and state.color == "green" and state.current == 0
    assert state.draw_pile == (*rest[1:39], "wild-draw4", *rest[39:])
    assert_every_card_accounted(state)


@pytest.mark.parametrize(
    ("starter", "current", "direction", "seat_0_holds"),
    [
        ("yellow-reverse", 1, -1, 7),  # the dealer, seat 1, plays first
        ("yellow-skip", 1, 1, 7),  # seat 0 is skipped
        ("yellow-draw2", 1, 1, 9),  # seat 0 draws 2 and is skipped
    ],
)
def test_starter_action_cards_with_two_players(starter, current, direction, seat_0_holds):
    """Deal 3 at a table of two, where the dealer of round 1 is seat 1: a reverse starter lets
    "the dealer play first", a skip skips seat 0, a draw2 makes seat 0 draw 2 and skips it."""
    t = Scenario([HANDS_3[0], IDLE_2], starter, ["blue-7", "green-4"])
    assert t.state.dealer == 1
    assert (t.state.current, t.state.direction) == (current, direction)
    assert len(t.hand(0)) == seat_0_holds
    assert len(t.hand(1)) == 7
    t.act(1, "play", card="yellow-1")
    assert t.state.current == 0


@pytest.mark.parametrize(
    ("starter", "rules"),
    [
        ("red-8", {"eight_again": True}),
        ("red-1", {"one_rotates": True}),
        ("red-0", {"zero_swap": True, "zero_discards_color": True}),
        ("red-0", {"zero_discards_color": True}),
        ("red-2", {"two_gives": True}),
    ],
)
def test_the_second_sets_effects_do_not_apply_to_the_starter_card(starter, rules):
    """Deal 3: "Seven-zero and other house effects do not apply to the starter card": a starter
    8 gives no extra turn, a 1 passes no hands, a 0 swaps and discards nothing, a 2 gives
    nothing; seat 0 simply plays first."""
    hands = [
        ["red-3", "red-4", "red-6", "blue-1", "blue-2", "blue-3", "blue-4"],
        IDLE_1,
        IDLE_2,
    ]
    t = Scenario(hands, starter, **rules)
    assert [t.hand(s) for s in range(3)] == hands
    assert t.state.discard_pile == (starter,)
    assert (t.state.current, t.state.pending) == (0, None)
    assert types(t.log)[-2:] == ["starter_turned", "turn_changed"]
    t.act(0, "play", card="red-3")
    assert t.state.current == 1
