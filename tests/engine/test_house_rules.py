"""House rules `elimination`, `uno_penalty`, `bluff_penalty`, the options themselves, and several
house rules at once. (Stacking, drawing and playing rules: tests/engine/test_house_*.py.)

> `elimination`: A player who goes out leaves the round; the others play on until one player is
> left holding cards, who scores (in `penalty` scoring) or pays out (in `winner` scoring) as usual.
>
> `uno_penalty`: Cards drawn when caught not saying UNO (default 2).
>
> `bluff_penalty`: Cards a player caught bluffing a wild-draw4 draws (default 4; some tables use 6).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import HOUSE_RULES, IllegalMove, Options, legal_actions, make_options, view
from games.engine.cards import hand_points
from games.engine.options import RULES
from games.engine.shapes import Rules, fields_of
from tests.support.scenario import HouseScenario, assert_all_cards, drawn

# --- elimination -----------------------------------------------------------------------------

RED = ["red-1", "red-2", "red-3", "red-4", "red-6", "red-7", "red-8"]
SEAT_2 = ["blue-1", "blue-2", "blue-3", "blue-4", "green-1", "green-2", "yellow-0"]
# Seat 1 draws (and keeps) the red 9; seat 2 draws action cards that never match a red number.
ELIMINATION_DRAWS = [
    "red-9",
    "blue-skip", "blue-reverse", "blue-draw2", "green-skip",
    "green-reverse", "green-draw2", "yellow-skip", "yellow-reverse",
]  # fmt: skip


def elimination_table(**rules: Any) -> HouseScenario:
    """Seats 0 and 1 play red after red; seat 2 draws every turn. Seat 0 goes out first."""
    t = HouseScenario([RED, RED, SEAT_2], "red-5", draws=ELIMINATION_DRAWS, **rules)
    t.act(0, "play", card="red-1")
    t.act(1, "draw")
    t.act(1, "pass")  # keeps the red 9: seat 1 now holds 8 cards
    t.act(2, "draw")
    for i in range(1, 6):
        t.act(0, "play", card=RED[i], uno=i == 5)
        t.act(1, "play", card=RED[i - 1])
        t.act(2, "draw")
    assert (t.hand(0), len(t.hand(1)), t.state.current) == (["red-8"], 3, 0)
    t.act(0, "play", card="red-8")  # seat 0's last card
    return t


@pytest.mark.parametrize("scoring", ["winner", "penalty"])
def test_elimination_the_others_play_on_until_one_holds_cards(scoring: str) -> None:
    t = elimination_table(elimination=True, scoring=scoring)
    assert t.state.round_number == 1  # the round goes on
    assert t.state.statuses == ("out", "playing", "playing")
    assert view(t.state, 1)["seats"][0]["status"] == "out"
    assert t.state.current == 1
    error = t.refused(0, "draw")
    assert error.code == "not_your_turn"

    t.act(1, "play", card="red-7")
    t.act(2, "draw")
    assert t.state.current == 1  # seat 0 is passed over
    t.act(1, "play", card="red-8", uno=True)
    t.act(2, "draw")
    t.act(1, "play", card="red-9")  # seat 1 goes out too: seat 2 alone holds cards

    result = t.state.last_round
    assert result is not None
    left = SEAT_2 + ELIMINATION_DRAWS[1:]
    assert sorted(result.hands[2]) == sorted(left)
    assert result.hands[0] == result.hands[1] == ()
    total = hand_points(left)
    assert total == 13 + 8 * 20
    # The engine's decision: the first seat to go out is the round's winner.
    assert result.winner_seat == 0
    if scoring == "winner":
        assert result.points == (total, 0, 0)  # seat 2 pays out to the first one out
    else:
        assert result.points == (0, 0, total)  # seat 2 scores its own hand
    assert t.state.scores == result.points
    # A new round is dealt, with every seat back in it.
    assert t.state.round_number == 2
    assert t.state.statuses == ("playing",) * 3
    assert_all_cards(t)


def test_without_elimination_the_round_ends_when_the_first_player_goes_out() -> None:
    t = elimination_table()
    result = t.state.last_round
    assert result is not None
    assert (result.winner_seat, t.state.round_number) == (0, 2)
    assert result.points[0] == hand_points(result.hands[1]) + hand_points(result.hands[2])
    assert_all_cards(t)


# --- uno_penalty and bluff_penalty ------------------------------------------------------------

# With two players a skip is played again by the same player: seat 0 sheds its skips one by one.
SKIPS = ["red-skip", "red-skip", "blue-skip", "blue-skip", "green-skip", "green-skip", "green-3"]
SEAT_1 = ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"]


@pytest.mark.parametrize(("rules", "count"), [({}, 2), ({"uno_penalty": 4}, 4)])
def test_uno_penalty_is_the_number_of_cards_a_caught_player_draws(
    rules: dict[str, Any], count: int
) -> None:
    t = HouseScenario([SKIPS, SEAT_1], "red-5", **rules)
    for card in SKIPS[:-1]:
        t.act(0, "play", card=card)  # the last skip leaves one card, and no UNO is said
    assert t.hand(0) == ["green-3"]
    events = t.act(1, "catch", target=0)
    assert len(drawn(events, 0)) == count
    assert len(t.hand(0)) == 1 + count
    assert_all_cards(t)


def test_a_catch_that_draws_nothing_leaves_one_card_and_uno_may_be_said() -> None:
    """The engine's decision: with `uno_penalty` 0 the caught seat draws nothing and still holds
    one card; it may say UNO after all, which changes nothing (it can be caught only once)."""
    t = HouseScenario([SKIPS, SEAT_1], "red-5", uno_penalty=0)
    for card in SKIPS[:-1]:
        t.act(0, "play", card=card)
    events = t.act(1, "catch", target=0)
    assert drawn(events, 0) == [] and t.hand(0) == ["green-3"]
    assert not t.state.catchable
    t.act(0, "uno")
    assert t.state.uno == {0} and t.hand(0) == ["green-3"]
    assert t.refused(1, "catch", target=0).code == "nothing_to_catch"
    assert_all_cards(t)


BLUFF_HANDS = [
    ["wild-draw4", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
    ["green-1", "green-2", "green-3", "green-4", "green-6", "green-7", "green-8"],
    ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
]


@pytest.mark.parametrize(("rules", "count"), [({}, 4), ({"bluff_penalty": 6}, 6)])
def test_bluff_penalty_is_the_number_of_cards_a_caught_bluffer_draws(
    rules: dict[str, Any], count: int
) -> None:
    """Seat 0 holds red cards, plays the wild-draw4 anyway, and is challenged."""
    t = HouseScenario(BLUFF_HANDS, "red-5", **rules)
    t.act(0, "play", card="wild-draw4", color="blue")
    events = t.act(1, "challenge")
    assert len(drawn(events, 0)) == count
    assert drawn(events, 1) == []
    assert (len(t.hand(0)), t.state.color, t.state.current) == (6 + count, "red", 1)
    assert_all_cards(t)


def test_bluff_penalty_does_not_change_what_a_wrong_challenger_draws() -> None:
    """Challenged and innocent: the challenger draws 6 (the 4 plus 2), whatever bluff_penalty."""
    honest = ["wild-draw4", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7"]
    t = HouseScenario([honest, *BLUFF_HANDS[1:]], "red-5", bluff_penalty=10)
    t.act(0, "play", card="wild-draw4", color="blue")
    events = t.act(1, "challenge")
    assert len(drawn(events, 1)) == 6
    assert (len(t.hand(0)), t.state.color, t.state.current) == (6, "blue", 2)
    assert_all_cards(t)


# --- the options themselves ------------------------------------------------------------------


SWITCHES = (
    "stacking",
    "reverse_bounce",
    "draw_until_playable",
    "force_play",
    "jump_in",
    "seven_zero",
    "multi_play",
    "no_action_finish",
    "elimination",
)
# The rule book's second set; the first four are each refused with another option.
SECOND_SET = (
    "zero_swap",
    "no_wild_finish",
    "one_rotates",
    "zero_discards_color",
    "eight_again",
    "two_gives",
    "color_runs",
    "action_on_action",
    "must_play",
    "number_starter",
    "uno_auto_penalty",
)


def test_the_options_are_the_rule_books() -> None:
    assert set(HOUSE_RULES) == {
        *SWITCHES,
        *SECOND_SET,
        "scoring",
        "uno_penalty",
        "bluff_penalty",
    }
    defaults = make_options()
    assert not any(getattr(defaults, name) for name in (*SWITCHES, *SECOND_SET))
    assert (defaults.scoring, defaults.uno_penalty, defaults.bluff_penalty) == ("winner", 2, 4)
    everything = make_options({name: True for name in (*SWITCHES, *SECOND_SET[2:])})
    assert all(everything.rules()[name] is True for name in (*SWITCHES, *SECOND_SET[2:]))


def test_each_house_rule_is_defined_once_by_the_options() -> None:
    """``Options`` defines a rule (name, type, default, bound, help); the game view's shape and
    the check of ``make_options`` read it."""
    assert tuple(rule.name for rule in RULES) == HOUSE_RULES
    assert [(f.name, f.hint, f.required) for f in fields_of(Rules)] == [
        (rule.name, rule.hint, True) for rule in RULES
    ]
    defaults = Options()
    assert make_options().rules() == {rule.name: rule.default for rule in RULES}
    assert all(getattr(defaults, rule.name) == rule.default for rule in RULES)
    for rule in RULES:
        if rule.bound is not None:
            for value in (rule.bound.low - 1, rule.bound.high + 1, True, "2"):
                with pytest.raises(IllegalMove) as info:
                    make_options({rule.name: value})
                assert info.value.detail == rule.bound.message()
        elif rule.choices:
            with pytest.raises(IllegalMove) as info:
                make_options({rule.name: "neither"})
            assert info.value.detail == f"'{rule.name}' must be 'winner' or 'penalty'."
        else:
            with pytest.raises(IllegalMove) as info:
                make_options({rule.name: 1})
            assert info.value.detail == f"House rule '{rule.name}' must be true or false."


@pytest.mark.parametrize(
    "rules",
    [
        {"stacking": True, "jump_in": True, "seven_zero": True, "slap_on_nine": True},
        {"silence_on_seven": True},
        {"stacking": "yes"},
        {"jump_in": 1},
        {"uno_penalty": 21},
        {"uno_penalty": True},
        {"bluff_penalty": -1},
        {"scoring": "lowest"},
        {"reverse_bounce": True},
    ],
)
def test_unknown_or_bad_options_are_refused(rules: dict[str, Any]) -> None:
    with pytest.raises(IllegalMove) as info:
        make_options(rules)
    assert info.value.code == "invalid_rules"


# --- several house rules at once -------------------------------------------------------------


def test_stacking_seven_zero_and_jump_in_in_one_game() -> None:
    t = HouseScenario(
        [
            ["red-7", "blue-draw2", "green-1", "green-2", "green-3", "green-4", "green-6"],
            ["red-draw2", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-8"],
            ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-8", "red-1"],
            ["red-7", "green-8", "green-9", "yellow-9", "blue-9", "red-2", "red-3"],
        ],
        "red-5",
        stacking=True,
        seven_zero=True,
        jump_in=True,
    )
    dealt = [t.hand(s) for s in range(4)]
    # Seat 0 plays a 7 and takes seat 1's hand.
    t.act(0, "play", card="red-7", target=1)
    assert t.hand(0) == dealt[1]
    assert t.hand(1) == dealt[0][1:]
    # Seat 3 jumps in with the other red 7 (a 7 still swaps: it names a target).
    assert t.refused(3, "play", card="red-7").code == "target_required"
    events = t.act(3, "play", card="red-7", target=2)
    assert events[0]["data"]["jump_in"] is True
    assert t.hand(3) == dealt[2]
    assert t.hand(2) == dealt[3][1:]
    assert t.state.current == 0  # play continues from seat 3
    # Seat 0 plays the red draw2 it got from seat 1; seat 1 stacks the blue draw2 it got from 0.
    t.act(0, "play", card="red-draw2")
    t.act(1, "play", card="blue-draw2")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount) == (2, 4)
    events = t.act(2, "draw")
    assert len(drawn(events, 2)) == 4
    assert [len(t.hand(s)) for s in range(4)] == [6, 5, 10, 7]
    assert (t.state.current, t.state.color) == (3, "blue")
    assert_all_cards(t)


def test_draw_until_playable_with_force_play_the_card_found_must_be_played() -> None:
    t = HouseScenario(
        [
            ["blue-1", "blue-2", "green-3", "yellow-4", "blue-6", "green-7", "yellow-8"],
            ["yellow-1", "yellow-2", "yellow-3", "green-4", "yellow-6", "yellow-7", "green-8"],
        ],
        "red-5",
        draws=["green-9", "yellow-9", "wild"],
        draw_until_playable=True,
        force_play=True,
    )
    events = t.act(0, "draw")
    assert drawn(events, 0) == ["green-9", "yellow-9", "wild"]
    assert t.refused(0, "pass").code == "must_play"
    assert t.refused(0, "play", card="wild").code == "color_required"
    t.act(0, "play", card="wild", color="green")
    assert (t.state.color, t.state.current, len(t.hand(0))) == ("green", 1, 9)
    assert_all_cards(t)


def test_multi_play_seven_zero_no_action_finish_and_elimination_together() -> None:
    """Seat 0 sheds four 4s at once, then goes out on two 7s at once; seats 1 and 2 play on.

    Going out on number cards is fine under no_action_finish; a 7 that empties the hand still
    names a target but swaps nothing (the engine's decision), and the round goes on.
    """
    t = HouseScenario(
        [
            ["red-4", "blue-4", "green-4", "yellow-4", "green-skip", "green-7", "blue-7"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-6", "yellow-7", "yellow-8", "yellow-9"],
            ["green-1", "green-2", "blue-1", "blue-2", "blue-3", "blue-6", "blue-8"],
        ],
        "red-5",
        multi_play=True,
        seven_zero=True,
        no_action_finish=True,
        elimination=True,
    )
    t.act(0, "play", cards=["red-4", "blue-4", "green-4", "yellow-4"])
    assert (t.state.color, t.state.current) == ("yellow", 1)
    t.act(1, "play", card="yellow-1")
    t.act(2, "play", card="green-1")
    t.act(0, "play", card="green-skip")  # seat 1 is skipped
    t.act(2, "play", card="green-2")
    assert t.hand(0) == ["green-7", "blue-7"]
    seat_1 = t.hand(1)
    assert t.refused(0, "play", cards=["green-7", "blue-7"]).code == "target_required"
    events = t.act(0, "play", cards=["green-7", "blue-7"], target=1)
    assert [e["type"] for e in events][:2] == ["card_played", "went_out"]
    assert "hands_swapped" not in {e["type"] for e in events}
    assert t.hand(0) == [] and t.hand(1) == seat_1
    assert t.state.statuses == ("out", "playing", "playing")
    assert (t.state.round_number, t.state.current, t.state.color) == (1, 1, "blue")
    # A seat that has gone out takes no part in a swap.
    sevens = [a for a in legal_actions(t.state, 1) if a.get("card") == "yellow-7"]
    assert [a["target"] for a in sevens] == [2]
    assert t.refused(1, "play", card="yellow-7", target=0).code == "invalid_target"
    seat_2 = t.hand(2)
    t.act(1, "play", card="yellow-7", target=2)
    assert t.hand(1) == seat_2 and t.hand(0) == []
    assert t.state.current == 2
    assert_all_cards(t)
