"""The second set of house rules: what a turn may do (`action_on_action`, `no_wild_finish`,
`must_play`, `number_starter`, `uno_auto_penalty`) and the combinations the rule book refuses.

> `action_on_action`: On a skip, reverse or draw2 (a starter card too), a different action card
> may not be played: only the same symbol (any colour), a number card of the current colour, or a
> wild or wild-draw4.
>
> `no_wild_finish`: A player may not go out on a wild or a wild-draw4; holding only wilds, they
> must draw. Refused together with `no_action_finish`.
>
> `must_play`: A player holding a playable card may not draw (422 `must_play`). A player whose
> only playable cards are wild-draw4s may still draw.
>
> `number_starter`: The starter card must be a number card: any other starter goes back into the
> draw pile (a given deck: at the bottom) and the next card is turned.
>
> `uno_auto_penalty`: A player who ends their play holding one card without saying UNO draws the
> `uno_penalty` when the catch window closes (by any move, a timeout included), whether or not
> anyone caught them; a catch inside the window applies it at once, and never twice.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import IllegalMove, legal_actions, make_options
from tests.support.scenario import (
    IDLE_1,
    IDLE_2,
    HouseScenario,
    actions,
    assert_all_cards,
    drawn,
    plays,
    the,
    types,
)

# --- action_on_action ----------------------------------------------------------------------------

FIRST = ["green-skip", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6"]
FACING = ["green-reverse", "red-skip", "green-draw2", "green-4", "wild", "blue-5", "yellow-9"]


def test_on_a_skip_only_a_skip_a_number_of_its_colour_or_a_wild() -> None:
    t = HouseScenario([FIRST, IDLE_1, FACING], "green-5", action_on_action=True)
    t.act(0, "play", card="green-skip")
    assert t.state.current == 2
    assert {a["card"] for a in plays(t.state, 2)} == {"red-skip", "green-4", "wild"}
    assert t.refused(2, "play", card="green-reverse").code == "illegal_card"
    assert t.refused(2, "play", card="green-draw2").code == "illegal_card"
    t.act(2, "play", card="red-skip")  # a skip on a skip stays legal
    assert t.state.current == 1
    assert_all_cards(t)
    without = HouseScenario([FIRST, IDLE_1, FACING], "green-5")
    without.act(0, "play", card="green-skip")
    assert "green-reverse" in {a["card"] for a in plays(without.state, 2)}


def test_a_starter_action_card_binds_too() -> None:
    t = HouseScenario([FIRST, IDLE_1, FACING], "blue-draw2", action_on_action=True)
    assert t.state.current == 1  # seat 0 drew 2 and was skipped
    listed = {a["card"] for a in plays(t.state, 1)}
    assert listed == {"blue-1", "blue-2", "blue-3", "wild", "wild-draw4"}
    assert t.refused(1, "play", card="blue-reverse").code == "illegal_card"
    without = HouseScenario([FIRST, IDLE_1, FACING], "blue-draw2")
    assert "blue-reverse" in {a["card"] for a in plays(without.state, 1)}


def test_a_drawn_action_card_on_an_action_card_is_not_playable() -> None:
    t = HouseScenario(
        [FIRST, IDLE_1, FACING],
        "blue-draw2",
        ["red-7", "red-8", "blue-skip"],
        action_on_action=True,
    )
    assert drawn(t.act(1, "draw"), 1) == ["blue-skip"]
    assert t.state.pending is None and t.state.current == 2
    assert_all_cards(t)


# --- no_wild_finish ------------------------------------------------------------------------------

THREES = ["red-3", "green-3", "blue-3", "green-3", "blue-3", "yellow-3"]
SECOND = ["blue-1", "blue-2", "blue-4", "blue-6", "blue-7", "blue-8", "blue-9"]
THIRD = ["green-1", "green-2", "green-4", "green-6", "green-7", "green-8", "green-9"]


def test_no_going_out_on_a_wild_holding_only_wilds_they_draw() -> None:
    t = HouseScenario(
        [[*THREES, "wild"], SECOND, THIRD],
        "red-5",
        ["red-9", "green-9", "red-1"],
        no_wild_finish=True,
        multi_play=True,
    )
    t.act(0, "play", cards=THREES, uno=True)
    t.act(1, "draw")
    t.act(2, "draw")
    assert plays(t.state, 0) == [] and actions(t.state, 0) == ["draw"]
    assert t.refused(0, "play", card="wild", color="red").code == "illegal_card"
    assert drawn(t.act(0, "draw"), 0) == ["red-1"]
    assert_all_cards(t)


def test_an_action_card_may_finish_under_no_wild_finish() -> None:
    t = HouseScenario(
        [[*THREES, "yellow-skip"], SECOND, THIRD],
        "red-5",
        ["red-9", "green-9"],
        no_wild_finish=True,
        multi_play=True,
    )
    t.act(0, "play", cards=THREES, uno=True)
    t.act(1, "draw")
    t.act(2, "draw")
    events = t.act(0, "play", card="yellow-skip")
    assert the(events, "round_ended")["data"]["winner_seat"] == 0
    assert_all_cards(t)


# --- must_play -----------------------------------------------------------------------------------


def test_a_seat_holding_a_playable_card_may_not_draw() -> None:
    hand = ["red-3", "blue-5", "green-9", "yellow-7", "blue-3", "green-6", "yellow-9"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", must_play=True)
    assert "draw" not in actions(t.state, 0)
    error = t.refused(0, "draw")
    assert error.code == "must_play"
    t.act(0, "play", card="red-3")
    assert_all_cards(t)


def test_a_timeout_draws_for_a_seat_under_must_play() -> None:
    """The "Time" section: the server draws one card for the seat, playable cards or not."""
    hand = ["red-3", "blue-5", "green-9", "yellow-7", "blue-3", "green-6", "yellow-9"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", ["yellow-8"], must_play=True)
    events = t.time_out()
    assert drawn(events, 0) == ["yellow-8"] and t.state.current == 1
    assert_all_cards(t)


def test_a_seat_whose_only_playable_card_is_a_draw_four_may_draw() -> None:
    hand = ["wild-draw4", "blue-4", "green-9", "yellow-7", "blue-3", "green-6", "yellow-9"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", ["yellow-8"], must_play=True)
    assert "draw" in actions(t.state, 0)
    t.act(0, "draw")
    assert t.state.current == 1
    assert_all_cards(t)


def test_a_stacked_penalty_may_be_taken_under_must_play() -> None:
    """The engine's decision: must_play binds a seat's own turn; a penalty can always be taken."""
    first = ["red-draw2", "blue-5", "green-9", "yellow-7", "blue-3", "green-6", "yellow-9"]
    second = ["blue-draw2", "red-1", "red-2", "yellow-1", "yellow-2", "yellow-3", "yellow-4"]
    t = HouseScenario([first, second, IDLE_2], "red-5", must_play=True, stacking=True)
    t.act(0, "play", card="red-draw2")
    assert {"action": "draw"} in legal_actions(t.state, 1)
    assert {"action": "play", "card": "blue-draw2"} in plays(t.state, 1)
    events = t.act(1, "draw")
    assert len(drawn(events, 1, "take")) == 2 and t.state.current == 2
    assert_all_cards(t)


# --- number_starter ------------------------------------------------------------------------------


def test_the_starter_is_a_number_card() -> None:
    t = HouseScenario(
        [IDLE_1, IDLE_2], "red-skip", ["wild", "green-draw2", "yellow-4"], number_starter=True
    )
    assert t.state.top_card == "yellow-4"
    assert t.state.draw_pile[-3:] == ("red-skip", "wild", "green-draw2")  # the bottom, in order
    assert types(t.log).count("starter_returned") == 3
    assert t.state.current == 0 and t.state.pending is None
    assert_all_cards(t)


def test_without_the_rule_an_action_starter_stands() -> None:
    t = HouseScenario([IDLE_1, IDLE_2], "red-skip", ["yellow-4"])
    assert t.state.top_card == "red-skip"


# --- uno_auto_penalty ----------------------------------------------------------------------------

# Seat 0 sheds six 3s at once and holds the red 8: one card, UNO not said.
SHEDDER = [*THREES, "red-8"]
SHED = THREES


def shedding(**rules: Any) -> HouseScenario:
    return HouseScenario(
        [SHEDDER, SECOND, THIRD],
        "red-5",
        ["red-9", "yellow-9", "yellow-8", "red-1"],
        multi_play=True,
        uno_auto_penalty=True,
        **rules,
    )


def test_an_unsaid_uno_is_drawn_when_the_window_closes() -> None:
    t = shedding()
    t.act(0, "play", cards=SHED)
    assert t.state.catchable == {0} and t.hand(0) == ["red-8"]
    events = t.act(1, "draw")  # the next move closes the window: seat 0 draws 2 at once
    assert drawn(events, 1) == ["red-9"]
    assert drawn(events, 0, "uno") == ["yellow-9", "yellow-8"]
    assert not t.state.catchable
    assert_all_cards(t)


def test_a_timeout_closes_the_window_too() -> None:
    t = shedding()
    t.act(0, "play", cards=SHED)
    events = t.time_out()
    assert drawn(events, 0, "uno") == ["yellow-9", "yellow-8"]
    assert_all_cards(t)


def test_a_catch_applies_the_penalty_at_once_and_never_twice() -> None:
    t = shedding()
    t.act(0, "play", cards=SHED)
    events = t.act(2, "catch", target=0)
    assert drawn(events, 0, "caught") == ["red-9", "yellow-9"]
    events = t.act(1, "draw")
    assert drawn(events, 0) == []
    assert_all_cards(t)


def test_saying_uno_in_the_window_or_with_the_play_avoids_it() -> None:
    t = shedding()
    t.act(0, "play", cards=SHED)
    t.act(0, "uno")
    events = t.act(1, "draw")
    assert drawn(events, 0) == [] and t.hand(0) == ["red-8"]
    said = shedding()
    said.act(0, "play", cards=SHED, uno=True)
    assert drawn(said.act(1, "draw"), 0) == []


def test_without_the_rule_an_uncaught_seat_keeps_one_card() -> None:
    t = HouseScenario([SHEDDER, SECOND, THIRD], "red-5", ["red-9", "yellow-9"], multi_play=True)
    t.act(0, "play", cards=SHED)
    assert drawn(t.act(1, "draw"), 0) == [] and t.hand(0) == ["red-8"]


# --- the combinations the rule book refuses ------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"zero_swap": True, "seven_zero": True}, ("zero_swap", "seven_zero")),
        (
            {"no_wild_finish": True, "no_action_finish": True},
            ("no_wild_finish", "no_action_finish"),
        ),
        (
            {"zero_swap": True, "zero_discards_color": True, "one_rotates": True},
            ("zero_swap", "zero_discards_color", "one_rotates"),
        ),
    ],
)
def test_refused_combinations_name_both_options(rules: dict[str, bool], named: tuple[str]) -> None:
    with pytest.raises(IllegalMove) as info:
        make_options(rules)
    assert info.value.code == "invalid_rules"
    for name in named:
        assert f"'{name}'" in info.value.detail
    # Any two of the three combine.
    for left_out in rules:
        make_options({k: v for k, v in rules.items() if k != left_out})


def test_action_on_action_binds_a_reverse_bounce_on_a_draw2() -> None:
    """The engine's decision: under `action_on_action` a reverse is a different action card on
    a draw2, so it does not bounce the penalty; on a wild-draw4 (no action card) it still
    does."""
    hands = [
        ["red-draw2", "wild-draw4", "red-1", "red-2", "red-3", "red-4", "red-6"],
        ["red-reverse", "blue-reverse", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6"],
        ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
    ]
    rules: dict[str, Any] = {"stacking": True, "reverse_bounce": True, "action_on_action": True}
    t = HouseScenario(hands, "red-5", **rules)
    t.act(0, "play", card="red-draw2")
    assert plays(t.state, 1) == []
    assert t.refused(1, "play", card="red-reverse").code == "illegal_card"
    events = t.act(1, "draw")
    assert len(drawn(events, 1, "take")) == 2
    assert_all_cards(t)

    four = HouseScenario(hands, "red-5", **rules)
    four.act(0, "play", card="wild-draw4", color="blue")
    four.act(1, "play", card="blue-reverse")
    pending = four.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 0, 4)
    assert_all_cards(four)


def test_a_challenge_after_another_seats_unsaid_uno_judges_the_hand_played_from() -> None:
    """Under `uno_auto_penalty` the wild-draw4 itself closes seat 2's UNO window: seat 2 draws
    its penalty, a wild-draw4 among the cards. Seat 1 catches seat 0, who played the wild-draw4
    leaving one card and said nothing, and seat 0 draws two reds. Seat 1's challenge still
    judges the hand seat 0 played from (a blue 3: no red), not the reds it was caught with."""
    six = ["green-1", "green-2", "green-4", "green-6", "yellow-1", "yellow-2"]
    seat_2 = ["red-4", "green-9", "blue-4", "blue-6", "blue-8", "blue-9", "yellow-7"]
    t = HouseScenario(
        [IDLE_1, IDLE_2, seat_2],
        "red-5",
        ["wild-draw4", "yellow-5", "red-8", "red-9", *six],
        uno_auto_penalty=True,
    )
    under = [c for c in IDLE_1 if c not in ("wild-draw4", "blue-3")] + seat_2[2:]
    t.set_table(
        hands=(("wild-draw4", "blue-3"), t.state.hands[1], ("red-4", "green-9")),
        discard_pile=(*under, "red-5"),
        current=2,
    )
    t.act(2, "play", card="red-4")  # one card left, UNO not said
    events = t.act(0, "play", card="wild-draw4", color="green")
    assert drawn(events, 2, "uno") == ["wild-draw4", "yellow-5"]
    t.act(1, "catch", target=0)
    assert t.hand(0) == ["blue-3", "red-8", "red-9"]
    events = t.act(1, "challenge")
    assert the(events, "challenged")["data"]["guilty"] is False
    assert drawn(events, 1, "challenge") == six
    assert (t.state.color, t.state.current) == ("green", 2)
