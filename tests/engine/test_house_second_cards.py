"""The second set of house rules: the cards that do more (`eight_again`, `two_gives`,
`one_rotates`, `zero_swap`, `zero_discards_color`, `color_runs`).

> `eight_again`: When a play's last card (the new top card) is an 8, the same player takes another
> turn at once; this holds for a drawn 8, several 8s under `multi_play` and a run ending on an 8,
> and not when the 8 was their last card. With `jump_in`, a seat that jumps in with the identical
> 8 takes the extra turn instead.
>
> `two_gives`: Playing a 2: the player may give up to two cards of their hand to one player of
> their choice. A gift of more than two cards, or one that would leave the giver no card, is
> refused (422 `illegal_gift`). Given cards are hidden from everyone but the giver and receiver.
>
> `one_rotates`: Playing a 1: every hand passes to the next player in the direction of play.
>
> `zero_swap`: Playing a 0: the player may swap hands with one player of their choice.
>
> `zero_discards_color`: Playing a 0 also puts every other card of the 0's colour from the
> player's hand onto the discard pile, under the 0; wilds stay, the discarded cards have no effect.
>
> `color_runs`: a run of two or more number cards of one colour in consecutive order, rising or
> falling, the first one matching the top card. Runs do not wrap.
"""

from __future__ import annotations

import pytest

from games.engine import event_view, legal_actions
from tests.support.scenario import (
    IDLE_1,
    IDLE_2,
    HouseScenario,
    assert_all_cards,
    plays,
    the,
    types,
)

# --- eight_again ---------------------------------------------------------------------------------

EIGHTS = ["red-8", "red-3", "blue-5", "green-6", "yellow-7", "green-8", "blue-8"]


def test_an_eight_plays_again() -> None:
    t = HouseScenario([EIGHTS, IDLE_1, IDLE_2], "red-5", eight_again=True)
    t.act(0, "play", card="red-8")
    assert (t.state.current, t.state.pending) == (0, None)
    assert {"action": "draw"} in legal_actions(t.state, 0)  # the extra turn is a whole turn
    assert {"action": "play", "card": "green-8"} in plays(t.state, 0)
    t.act(0, "play", card="red-3")
    assert t.state.current == 1
    assert_all_cards(t)


def test_an_eight_without_the_rule_passes_the_turn() -> None:
    t = HouseScenario([EIGHTS, IDLE_1, IDLE_2], "red-5")
    t.act(0, "play", card="red-8")
    assert t.state.current == 1


def test_the_extra_turn_times_out_as_any_turn() -> None:
    t = HouseScenario([EIGHTS, IDLE_1, IDLE_2], "red-5", ["yellow-9"], eight_again=True)
    t.act(0, "play", card="red-8")
    events = t.time_out()
    assert [e["type"] for e in events[:2]] == ["timed_out", "cards_drawn"]
    assert "yellow-9" in t.hand(0) and t.state.current == 1
    assert_all_cards(t)


def test_a_drawn_eight_plays_again() -> None:
    hand = ["blue-9", "green-6", "yellow-7", "green-4", "blue-4", "yellow-3", "green-3"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", ["red-8"], eight_again=True)
    t.act(0, "draw")
    assert t.state.pending is not None and t.state.pending.card == "red-8"
    t.act(0, "play", card="red-8")
    assert (t.state.current, t.state.pending) == (0, None)
    assert_all_cards(t)


def test_several_eights_play_again_once() -> None:
    hand = ["red-8", "green-8", "blue-3", "green-6", "yellow-7", "green-4", "blue-4"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", eight_again=True, multi_play=True)
    t.act(0, "play", cards=["red-8", "green-8"])
    assert (t.state.current, t.state.color) == (0, "green")
    t.act(0, "play", card="green-6")
    assert t.state.current == 1
    assert_all_cards(t)


def test_a_run_ending_on_an_eight_plays_again() -> None:
    hand = ["red-6", "red-7", "red-8", "blue-3", "green-6", "yellow-2", "green-4"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", eight_again=True, color_runs=True)
    t.act(0, "play", cards=["red-6", "red-7", "red-8"])
    assert t.state.current == 0 and t.state.top_card == "red-8"
    assert_all_cards(t)


def test_going_out_on_an_eight_ends_the_round() -> None:
    hand = ["red-8", "red-8", "green-8", "green-8", "blue-8", "blue-8", "yellow-8"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", eight_again=True, multi_play=True)
    events = t.act(0, "play", cards=hand)
    assert the(events, "round_ended")["data"]["winner_seat"] == 0
    assert t.state.round_number == 2
    assert_all_cards(t)


def test_an_eight_jumped_in_on_gives_the_jumper_the_extra_turn() -> None:
    first = ["green-8", "red-3", "blue-5", "green-6", "yellow-7", "blue-9", "red-9"]
    jumper = ["green-8", "yellow-3", "yellow-4", "yellow-5", "yellow-6", "blue-6", "red-6"]
    t = HouseScenario([first, IDLE_1, jumper], "green-1", eight_again=True, jump_in=True)
    t.act(0, "play", card="green-8")
    assert t.state.current == 0
    assert plays(t.state, 2) == [{"action": "play", "card": "green-8"}]
    t.act(2, "play", card="green-8")
    assert (t.state.current, t.state.pending) == (2, None)  # seat 0 has lost its extra turn
    assert plays(t.state, 0) == []
    assert_all_cards(t)


# --- two_gives -----------------------------------------------------------------------------------

GIVER = ["red-2", "blue-5", "green-9", "yellow-7", "red-3", "green-6", "yellow-9"]


def test_a_two_gives_two_cards_to_a_seat_of_choice() -> None:
    t = HouseScenario([GIVER, IDLE_1, IDLE_2], "red-5", two_gives=True)
    # legal_actions lists the 2 without a gift; the gift is added to it.
    assert {"action": "play", "card": "red-2"} in plays(t.state, 0)
    assert not any("give" in a for a in plays(t.state, 0))
    events = t.act(0, "play", card="red-2", give=["blue-5", "green-9"], target=2)
    assert t.hand(0) == ["yellow-7", "red-3", "green-6", "yellow-9"]
    assert t.hand(2) == [*IDLE_2, "blue-5", "green-9"]
    assert t.state.current == 1 and t.state.top_card == "red-2"
    gift = the(events, "cards_given")
    assert gift["data"]["target"] == 2
    # Seen by the giver and the receiver only; the others see how many.
    viewer: int | None
    for viewer in (0, 2):
        assert event_view(gift, viewer, False)["data"]["cards"] == ["blue-5", "green-9"]
    for viewer in (1, None):
        shown = event_view(gift, viewer, False)["data"]
        assert "cards" not in shown and shown["count"] == 2
    assert_all_cards(t)


def test_a_two_without_a_gift_gives_nothing() -> None:
    t = HouseScenario([GIVER, IDLE_1, IDLE_2], "red-5", two_gives=True)
    events = t.act(0, "play", card="red-2", give=[])
    assert "cards_given" not in [e["type"] for e in events]
    assert len(t.hand(0)) == 6 and len(t.hand(2)) == 7


def test_a_gift_is_refused_when_it_breaks_the_rule() -> None:
    t = HouseScenario([GIVER, IDLE_1, IDLE_2], "red-5", two_gives=True)
    too_many = t.refused(0, "play", card="red-2", give=["blue-5", "green-9", "red-3"], target=1)
    assert too_many.code == "illegal_gift"
    assert t.refused(0, "play", card="red-2", give=["blue-5"]).code == "target_required"
    assert t.refused(0, "play", card="red-2", give=["blue-5"], target=0).code == "invalid_target"
    assert t.refused(0, "play", card="red-2", give=["red-9"], target=1).code == "card_not_in_hand"
    # The 2 itself is played, not given.
    assert t.refused(0, "play", card="red-2", give=["red-2"], target=1).code == "card_not_in_hand"
    assert t.refused(0, "play", card="red-3", give=["blue-5"], target=1).code == "invalid"
    assert t.refused(0, "play", card="red-2", target=1).code == "invalid"
    without = HouseScenario([GIVER, IDLE_1, IDLE_2], "red-5")
    assert without.refused(0, "play", card="red-2", give=["blue-5"], target=1).code == "invalid"


TWOS = ["red-2", "green-2", "green-2", "blue-2", "blue-2", "yellow-5", "yellow-6"]
ALL_TWOS = ["red-2", "green-2", "green-2", "blue-2", "blue-2"]
SEAT_1 = ["yellow-8", "yellow-9", "red-9", "red-skip", "red-reverse", "green-7", "wild"]


def test_giving_with_two_cards_left_must_leave_one_and_say_uno() -> None:
    t = HouseScenario([TWOS, SEAT_1, IDLE_2], "red-4", two_gives=True, multi_play=True)
    error = t.refused(0, "play", cards=ALL_TWOS, give=["yellow-5", "yellow-6"], target=1)
    assert error.code == "illegal_gift"
    # UNO is said for the hand the play and the gift leave.
    assert t.refused(0, "play", cards=ALL_TWOS, uno=True).code == "invalid"
    t.act(0, "play", cards=ALL_TWOS, give=["yellow-5"], target=1, uno=True)
    assert t.hand(0) == ["yellow-6"] and 0 in t.state.uno and not t.state.catchable
    assert_all_cards(t)


def test_a_gift_leaving_one_card_unsaid_can_be_caught() -> None:
    t = HouseScenario([TWOS, SEAT_1, IDLE_2], "red-4", two_gives=True, multi_play=True)
    t.act(0, "play", cards=ALL_TWOS, give=["yellow-5"], target=2)
    assert t.state.catchable == {0}
    t.act(1, "catch", target=0)
    assert len(t.hand(0)) == 3
    assert_all_cards(t)


# --- one_rotates ---------------------------------------------------------------------------------


def test_a_one_passes_every_hand_on() -> None:
    ones = ["red-1", "blue-5", "green-9", "yellow-7", "red-3", "green-6", "yellow-9"]
    t = HouseScenario([ones, IDLE_1, IDLE_2], "red-5", one_rotates=True)
    events = t.act(0, "play", card="red-1")
    assert the(events, "hands_rotated")["data"]["direction"] == 1
    assert t.hand(1) == ones[1:] and t.hand(2) == IDLE_1 and t.hand(0) == IDLE_2
    assert t.state.current == 1
    assert_all_cards(t)


# --- zero_swap -----------------------------------------------------------------------------------

ZERO = ["red-0", "blue-5", "green-9", "yellow-7", "red-3", "green-6", "yellow-9"]


def test_a_zero_swaps_with_a_seat_of_choice_or_with_no_one() -> None:
    t = HouseScenario([ZERO, IDLE_1, IDLE_2], "red-5", zero_swap=True)
    listed = [a for a in plays(t.state, 0) if a["card"] == "red-0"]
    assert listed == [
        {"action": "play", "card": "red-0"},
        {"action": "play", "card": "red-0", "target": 1},
        {"action": "play", "card": "red-0", "target": 2},
    ]
    assert t.refused(0, "play", card="red-0", target=0).code == "invalid_target"
    t.act(0, "play", card="red-0", target=2)
    assert t.hand(0) == IDLE_2 and t.hand(2) == ZERO[1:]
    assert_all_cards(t)

    plain = HouseScenario([ZERO, IDLE_1, IDLE_2], "red-5", zero_swap=True)
    events = plain.act(0, "play", card="red-0")
    assert "hands_swapped" not in [e["type"] for e in events]
    assert plain.hand(0) == ZERO[1:]


# --- zero_discards_color --------------------------------------------------------------------------


def test_a_zero_discards_the_rest_of_its_colour_with_no_effect() -> None:
    hand = ["red-0", "red-3", "red-draw2", "wild", "blue-5", "red-skip", "green-6"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True)
    events = t.act(0, "play", card="red-0")
    assert the(events, "color_discarded")["data"]["cards"] == ["red-3", "red-draw2", "red-skip"]
    assert t.hand(0) == ["wild", "blue-5", "green-6"]  # the wild stays
    assert t.state.discard_pile == ("red-5", "red-3", "red-draw2", "red-skip", "red-0")
    assert t.state.current == 1 and len(t.hand(1)) == 7  # the draw2 made no one draw
    assert_all_cards(t)


def test_a_zero_that_leaves_one_card_must_say_uno() -> None:
    hand = ["red-0", "red-3", "red-draw2", "red-skip", "red-6", "red-7", "wild"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True)
    assert {"action": "play", "card": "red-0", "uno": True} in plays(t.state, 0)
    t.act(0, "play", card="red-0")
    assert t.hand(0) == ["wild"] and t.state.catchable == {0}
    t.act(2, "catch", target=0)
    assert len(t.hand(0)) == 3
    said = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True)
    said.act(0, "play", card="red-0", uno=True)
    assert said.state.uno == {0} and not said.state.catchable
    assert_all_cards(said)


def test_a_zero_that_discards_the_last_cards_of_its_colour_goes_out() -> None:
    hand = ["red-0", "red-3", "red-draw2", "red-skip", "red-6", "red-7", "red-9"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True)
    events = t.act(0, "play", card="red-0")
    ended = the(events, "round_ended")["data"]
    assert ended["winner_seat"] == 0 and ended["hands"][1] == IDLE_1  # no one drew
    assert t.state.round_number == 2
    assert_all_cards(t)


def test_with_zero_swap_the_one_discards_and_the_zero_swaps() -> None:
    hand = ["red-1", "red-3", "yellow-0", "blue-5", "red-6", "green-6", "yellow-9"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True, zero_swap=True)
    events = t.act(0, "play", card="red-1")
    assert the(events, "color_discarded")["data"]["cards"] == ["red-3", "red-6"]
    assert t.hand(0) == ["yellow-0", "blue-5", "green-6", "yellow-9"]
    assert_all_cards(t)
    zero = HouseScenario(
        [hand, IDLE_1, IDLE_2], "yellow-7", zero_discards_color=True, zero_swap=True
    )
    events = zero.act(0, "play", card="yellow-0", target=1)
    assert "color_discarded" not in [e["type"] for e in events]
    assert zero.hand(1) == [c for c in hand if c != "yellow-0"]
    assert_all_cards(zero)


# --- color_runs ----------------------------------------------------------------------------------

RUNNER = ["blue-3", "blue-4", "blue-5", "blue-9", "blue-0", "red-7", "green-2"]
OTHER = ["yellow-1", "yellow-2", "yellow-skip", "yellow-draw2", "green-0", "green-1", "wild"]


def test_a_run_of_one_colour_rising_or_falling() -> None:
    t = HouseScenario([RUNNER, IDLE_1, OTHER], "blue-2", color_runs=True)
    t.act(0, "play", cards=["blue-3", "blue-4", "blue-5"])
    assert t.state.top_card == "blue-5" and t.state.current == 1
    assert_all_cards(t)
    falling = HouseScenario([RUNNER, IDLE_1, OTHER], "blue-2", color_runs=True)
    falling.act(0, "play", cards=["blue-5", "blue-4", "blue-3"])
    assert falling.state.top_card == "blue-3"


def test_what_is_no_run() -> None:
    t = HouseScenario([RUNNER, IDLE_1, OTHER], "blue-2", color_runs=True)
    assert t.refused(0, "play", cards=["blue-3", "blue-4", "blue-3"]).code == "card_not_in_hand"
    assert t.refused(0, "play", cards=["blue-9", "blue-0"]).code == "illegal_card"
    assert t.refused(0, "play", cards=["blue-3", "blue-5"]).code == "illegal_card"
    assert t.refused(0, "play", cards=["green-2", "blue-3"]).code == "illegal_card"
    without = HouseScenario([RUNNER, IDLE_1, OTHER], "blue-2")
    assert without.refused(0, "play", cards=["blue-3", "blue-4"]).code == "invalid"


def test_the_first_card_of_a_run_matches_the_top_card() -> None:
    hand = ["red-3", "red-4", "blue-9", "blue-8", "blue-7", "red-7", "green-2"]
    t = HouseScenario([hand, IDLE_1, OTHER], "green-5", color_runs=True)
    assert t.refused(0, "play", cards=["red-3", "red-4"]).code == "illegal_card"
    t.act(0, "play", cards=["green-2"])
    assert t.state.current == 1


def test_with_multi_play_cards_is_a_run_or_a_set() -> None:
    hand = ["blue-3", "blue-4", "red-3", "blue-9", "blue-0", "red-7", "green-2"]
    t = HouseScenario([hand, IDLE_1, OTHER], "blue-2", color_runs=True, multi_play=True)
    t.act(0, "play", cards=["blue-3", "red-3"])
    assert t.state.color == "red"
    runs = HouseScenario([hand, IDLE_1, OTHER], "blue-2", color_runs=True, multi_play=True)
    runs.act(0, "play", cards=["blue-3", "blue-4"])
    assert runs.state.top_card == "blue-4"


def test_with_seven_zero_a_zero_discards_then_the_hands_rotate() -> None:
    """The engine's decision for `zero_discards_color` with `seven_zero`: the 0 discards the
    rest of its colour from the hand first, then every hand passes on, the rest of seat 0's
    hand to seat 1."""
    hand = ["red-0", "red-3", "red-6", "blue-5", "green-6", "yellow-9", "wild"]
    t = HouseScenario([hand, IDLE_1, IDLE_2], "red-5", zero_discards_color=True, seven_zero=True)
    events = t.act(0, "play", card="red-0")
    assert types(events)[:3] == ["card_played", "color_discarded", "hands_rotated"]
    assert t.hand(1) == ["blue-5", "green-6", "yellow-9", "wild"]
    assert t.hand(2) == IDLE_1 and t.hand(0) == IDLE_2
    assert t.state.discard_pile == ("red-5", "red-3", "red-6", "red-0")
    assert t.state.current == 1
    assert_all_cards(t)


RUN = ["red-2", "red-3", "red-4", "red-5", "red-6", "red-6"]
NO_RED = ["yellow-8", "green-8", "blue-8", "yellow-9", "green-9", "blue-9"] * 2


@pytest.mark.parametrize(
    ("last", "rules", "fields"),
    [
        ("red-0", {"seven_zero": True}, {}),
        ("red-1", {"one_rotates": True}, {}),
        ("red-0", {"zero_swap": True}, {"target": 2}),
    ],
)
def test_going_out_on_a_card_that_moves_hands_moves_none(
    last: str, rules: dict[str, bool], fields: dict[str, int]
) -> None:
    """The engine's decision: a 0 or a 1 that empties the hand passes no hands on and swaps
    none (the seat that went out would take cards back). With `elimination` the others play on
    with the hands they hold."""
    t = HouseScenario([[*RUN, last], IDLE_1, IDLE_2], "red-9", NO_RED, elimination=True, **rules)
    for i, card in enumerate(RUN):
        t.act(0, "play", card=card, uno=i == len(RUN) - 1)
        t.draw_and_keep(1)
        t.draw_and_keep(2)
    assert t.hand(0) == [last] and t.state.current == 0
    held = [t.hand(1), t.hand(2)]
    events = t.act(0, "play", card=last, **fields)
    assert not {"hands_rotated", "hands_swapped"} & set(types(events))
    assert t.state.statuses[0] == "out" and t.hand(0) == []
    assert [t.hand(1), t.hand(2)] == held
    assert (t.state.round_number, t.state.current) == (1, 1)
    assert_all_cards(t)
