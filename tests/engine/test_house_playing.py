"""House rules `jump_in`, `seven_zero` and `multi_play`.

> `jump_in`: A player holding a card identical (colour and number) to the top card may play it out
> of turn; play continues from them. Only number cards; not with a card just drawn as a penalty.
>
> `seven_zero`: Playing a 7: the player swaps hands with a player of their choice. Playing a 0:
> every hand passes to the next player in the direction of play.
>
> `multi_play`: A player may play several cards of the same number at once (any colours), the
> first one matching the top card; the last one sets the colour.
"""

from __future__ import annotations

import pytest

from games.engine import legal_actions
from tests.support.scenario import HouseScenario, assert_all_cards, plays

# --- jump_in ---------------------------------------------------------------------------------

JUMP_HANDS = [
    ["green-7", "green-skip", "red-1", "red-2", "red-3", "red-4", "red-6"],
    ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-8", "blue-9"],
    ["green-7", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-8"],
    ["red-7", "green-skip", "yellow-9", "green-2", "green-3", "green-4", "green-6"],
]


def test_jump_in_with_the_identical_number_card_out_of_turn() -> None:
    """Seat 0 plays the green 7; seat 2 holds the other green 7 and jumps in before seat 1."""
    t = HouseScenario(JUMP_HANDS, "green-1", jump_in=True)
    t.act(0, "play", card="green-7")
    assert t.state.current == 1
    # Seat 2 may play now though it is seat 1's turn; seat 3's red 7 is not identical.
    assert plays(t.state, 2) == [{"action": "play", "card": "green-7"}]
    assert plays(t.state, 3) == []
    error = t.refused(3, "play", card="red-7")
    assert error.code == "not_your_turn"

    events = t.act(2, "play", card="green-7")
    assert events[0]["type"] == "card_played"
    assert events[0]["data"]["jump_in"] is True
    assert t.state.current == 3  # play continues from the jumper: seat 1 has lost its turn
    assert len(t.hand(1)) == 7
    assert t.state.discard_pile[-2:] == ("green-7", "green-7")
    assert_all_cards(t)


def test_no_jump_in_with_an_action_card() -> None:
    t = HouseScenario(JUMP_HANDS, "green-1", jump_in=True)
    t.act(0, "play", card="green-skip")
    assert t.state.current == 2
    assert plays(t.state, 3) == []
    assert t.refused(3, "play", card="green-skip").code == "not_your_turn"
    assert_all_cards(t)


def test_no_jump_in_without_the_rule() -> None:
    t = HouseScenario(JUMP_HANDS, "green-1")
    t.act(0, "play", card="green-7")
    assert plays(t.state, 2) == []
    assert t.refused(2, "play", card="green-7").code == "not_your_turn"
    assert_all_cards(t)


def test_no_jump_in_with_a_card_just_drawn_as_a_penalty() -> None:
    """Seat 0 sheds six 3s at once (multi_play), forgets UNO, is caught and draws the yellow 3.

    The yellow 3 matches the top card but was just drawn as a penalty: it cannot jump in. Once
    the next move has been made it is an ordinary card of the hand (the engine's decision).
    """
    t = HouseScenario(
        [
            ["red-3", "green-3", "blue-3", "green-3", "blue-3", "yellow-3", "red-8"],
            ["blue-1", "blue-2", "blue-4", "blue-6", "blue-7", "blue-8", "blue-9"],
            ["green-1", "green-2", "green-4", "green-6", "green-7", "green-8", "green-9"],
        ],
        "red-5",
        draws=["yellow-3", "blue-9", "green-skip"],
        jump_in=True,
        multi_play=True,
    )
    t.act(0, "play", cards=["red-3", "green-3", "blue-3", "green-3", "blue-3", "yellow-3"])
    assert (t.hand(0), t.state.top_card, t.state.current) == (["red-8"], "yellow-3", 1)
    t.act(1, "catch", target=0)
    assert t.hand(0) == ["red-8", "yellow-3", "blue-9"]

    assert plays(t.state, 0) == []
    assert t.refused(0, "play", card="yellow-3").code == "not_your_turn"

    t.act(1, "draw")  # a green skip: no match for the yellow 3, seat 1's turn ends
    assert t.state.current == 2
    events = t.act(0, "play", card="yellow-3")
    assert events[0]["data"]["jump_in"] is True
    assert t.state.current == 1
    assert_all_cards(t)


def test_no_jump_in_with_a_penalty_card_when_another_seat_draws_a_penalty_after() -> None:
    """Two penalties since the last move: seat 1's play closes seat 0's UNO window and seat 0
    draws its unsaid UNO (uno_auto_penalty), the other red 6 among the cards; then seat 2
    catches seat 1, who left one card without UNO. Seat 0's red 6 is still a card just drawn as
    a penalty: it may not jump in on seat 1's red 6 (before, seat 1's penalty took the place of
    seat 0's, and the red 6 could jump in). After the next move it is an ordinary card."""
    t = HouseScenario(
        [
            ["red-4", "blue-9", "blue-1", "blue-2", "blue-3", "blue-4", "blue-5"],
            ["red-6", "green-1", "green-2", "green-3", "green-4", "green-5", "green-6"],
            ["yellow-1", "yellow-2", "yellow-skip", "yellow-draw2", "green-0", "blue-0", "wild"],
        ],
        "red-5",
        draws=["red-6", "yellow-3", "yellow-4", "yellow-6", "green-9"],
        jump_in=True,
        uno_auto_penalty=True,
    )
    hands = t.state.hands
    t.set_table(
        hands=(("red-4", "blue-9"), ("red-6", "green-1"), hands[2]),
        discard_pile=(*hands[0][2:], *hands[1][2:], "red-5"),
    )
    t.act(0, "play", card="red-4")  # one card left, UNO not said
    t.act(1, "play", card="red-6")  # the same; seat 0 draws its penalty now
    assert t.hand(0) == ["blue-9", "red-6", "yellow-3"]
    assert plays(t.state, 0) == []
    t.act(2, "catch", target=1)
    assert t.hand(1) == ["green-1", "yellow-4", "yellow-6"]

    assert plays(t.state, 0) == []
    assert t.refused(0, "play", card="red-6").code == "not_your_turn"

    t.act(2, "draw")  # the green 9 does not fit: seat 2's turn ends
    assert t.state.current == 0
    t.act(0, "play", card="red-6")
    assert t.state.current == 1


def test_jump_in_on_the_starter_and_by_the_seat_that_just_played() -> None:
    """The engine's decisions: a number starter may be jumped in on, and the seat that just
    played is not the one to act, so it may jump in with the other copy; play goes on from it,
    so seat 1 is next again."""
    seat_2 = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-8", "blue-9"]
    starter = HouseScenario(
        [JUMP_HANDS[0], ["green-1", *JUMP_HANDS[1][1:]], seat_2], "green-1", jump_in=True
    )
    assert plays(starter.state, 1) == [{"action": "play", "card": "green-1"}]
    events = starter.act(1, "play", card="green-1")
    assert events[0]["data"]["jump_in"] is True
    assert starter.state.current == 2
    assert_all_cards(starter)

    twice = ["green-7", "green-7", "red-1", "red-2", "red-3", "red-4", "red-6"]
    t = HouseScenario([twice, JUMP_HANDS[1], seat_2], "green-1", jump_in=True)
    t.act(0, "play", card="green-7")
    assert t.state.current == 1
    assert plays(t.state, 0) == [{"action": "play", "card": "green-7"}]
    events = t.act(0, "play", card="green-7")
    assert events[0]["data"]["jump_in"] is True
    assert t.state.current == 1
    assert len(t.hand(1)) == 7
    assert_all_cards(t)


def test_no_jump_in_with_a_penalty_card_drawn_before_a_reshuffle() -> None:
    """A catch that draws its cards on either side of a reshuffle: given a draw pile of one
    card, the other green 7, seat 0 plays a green 7 leaving one card, is caught, draws the
    green 7, the pile is refilled and it draws one more. Both are cards just drawn as a
    penalty: the green 7 may not jump in (before, only the card drawn after the reshuffle was
    barred)."""
    t = HouseScenario(
        [
            ["green-7", "blue-9", "red-1", "red-2", "red-3", "red-4", "red-6"],
            ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-8", "yellow-9"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-8", "green-7"],
        ],
        "green-1",
        jump_in=True,
    )
    hands = t.state.hands
    pile = t.state.draw_pile
    t.set_table(
        hands=(("green-7", "blue-9"), hands[1], (*hands[2][:-1], *pile[5:])),
        draw_pile=("green-7",),
        discard_pile=(*hands[0][2:], *pile[:5], "green-1"),
    )
    t.act(0, "play", card="green-7")  # one card left, UNO not said
    events = t.act(1, "catch", target=0)
    assert [e["type"] for e in events][1:] == ["cards_drawn", "pile_reshuffled", "cards_drawn"]
    assert t.hand(0)[:2] == ["blue-9", "green-7"]
    assert plays(t.state, 0) == []
    assert t.refused(0, "play", card="green-7").code == "not_your_turn"


# --- seven_zero ------------------------------------------------------------------------------

SEVEN_ZERO_HANDS = [
    ["red-7", "red-reverse", "green-1", "green-2", "green-3", "green-4", "green-6"],
    ["red-0", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-8"],
    ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "red-6", "blue-9"],
    ["red-1", "red-2", "red-3", "red-4", "red-6", "red-8", "red-9"],
]


def test_a_seven_swaps_hands_with_the_chosen_player() -> None:
    t = HouseScenario(SEVEN_ZERO_HANDS, "red-5", seven_zero=True)
    seat_0, seat_2 = t.hand(0), t.hand(2)
    sevens = [a for a in plays(t.state, 0) if a["card"] == "red-7"]
    assert [a["target"] for a in sevens] == [1, 2, 3]  # one entry per target

    error = t.refused(0, "play", card="red-7")
    assert error.code == "target_required"
    for target in (0, 4, -1, "2", True):  # itself, no such seat, not a seat number
        assert t.refused(0, "play", card="red-7", target=target).code == "invalid_target"

    events = t.act(0, "play", card="red-7", target=2)
    assert [e["type"] for e in events][:2] == ["card_played", "hands_swapped"]
    assert t.hand(0) == seat_2
    assert t.hand(2) == [c for c in seat_0 if c != "red-7"]
    assert t.state.current == 1
    assert_all_cards(t)


def test_a_zero_passes_every_hand_to_the_next_player() -> None:
    t = HouseScenario(SEVEN_ZERO_HANDS, "red-5", seven_zero=True)
    t.act(0, "play", card="red-7", target=3)
    before = [t.hand(s) for s in range(4)]
    events = t.act(1, "play", card="red-0")
    assert [e["type"] for e in events][:2] == ["card_played", "hands_rotated"]
    after_play = [before[0], before[1][1:], before[2], before[3]]  # seat 1 played its red-0
    assert [t.hand(s) for s in range(4)] == [after_play[3], *after_play[:3]]
    assert t.state.current == 2
    assert_all_cards(t)


def test_a_zero_passes_the_hands_the_other_way_after_a_reverse() -> None:
    t = HouseScenario(SEVEN_ZERO_HANDS, "red-5", seven_zero=True)
    t.act(0, "play", card="red-reverse")
    assert (t.state.current, t.state.direction) == (3, -1)
    t.act(3, "play", card="red-4")
    t.act(2, "play", card="red-6")
    assert t.state.current == 1
    before = [t.hand(s) for s in range(4)]
    t.act(1, "play", card="red-0")
    after_play = [before[0], before[1][1:], before[2], before[3]]
    # Counter-clockwise: seat 1's hand goes to seat 0, seat 0's to seat 3, and so on.
    assert [t.hand(s) for s in range(4)] == [*after_play[1:], after_play[0]]
    assert t.state.current == 0
    assert_all_cards(t)


@pytest.mark.parametrize("starter", ["red-7", "red-0"])
def test_seven_zero_does_not_apply_to_the_starter_card(starter: str) -> None:
    hands = [
        ["red-1", "red-2", "red-3", "red-4", "red-6", "red-8", "red-9"],
        ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-8", "yellow-9"],
        ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-8", "blue-9"],
    ]
    t = HouseScenario(hands, starter, seven_zero=True)
    assert [t.hand(s) for s in range(3)] == hands
    assert not {"hands_swapped", "hands_rotated"} & {e["type"] for e in t.log}
    assert (t.state.current, t.state.pending) == (0, None)
    t.act(0, "play", card="red-1")
    assert t.hand(1) == hands[1]
    assert_all_cards(t)


def test_without_seven_zero_a_seven_takes_no_target() -> None:
    t = HouseScenario(SEVEN_ZERO_HANDS, "red-5")
    error = t.refused(0, "play", card="red-7", target=2)
    assert error.code == "invalid"
    t.act(0, "play", card="red-7")
    assert not any(e["type"] == "hands_swapped" for e in t.log)
    assert_all_cards(t)


# --- multi_play ------------------------------------------------------------------------------

MULTI_HANDS = [
    ["blue-5", "green-5", "yellow-5", "red-3", "red-4", "green-9", "red-9"],
    ["yellow-2", "red-2", "blue-2", "red-skip", "blue-skip", "green-1", "green-2"],
    ["blue-1", "blue-3", "blue-4", "blue-6", "blue-7", "blue-8", "blue-9"],
]


def test_several_cards_of_the_same_number_at_once() -> None:
    """The first card matches the top card (by number, then by colour); the last sets the colour."""
    t = HouseScenario(MULTI_HANDS, "red-5", multi_play=True)
    events = t.act(0, "play", cards=["blue-5", "green-5", "yellow-5"])
    assert events[0]["data"]["cards"] == ["blue-5", "green-5", "yellow-5"]
    assert t.state.discard_pile == ("red-5", "blue-5", "green-5", "yellow-5")
    assert (t.state.top_card, t.state.color) == ("yellow-5", "yellow")
    assert t.hand(0) == ["red-3", "red-4", "green-9", "red-9"]
    assert t.state.current == 1

    t.act(1, "play", cards=["yellow-2", "red-2", "blue-2"])  # yellow-2 matches by colour
    assert (t.state.top_card, t.state.color, t.state.current) == ("blue-2", "blue", 2)
    assert len(t.hand(1)) == 4
    assert_all_cards(t)


def test_multi_play_refusals() -> None:
    t = HouseScenario(MULTI_HANDS, "red-5", multi_play=True)
    # Mixing numbers.
    error = t.refused(0, "play", cards=["red-3", "red-4"])
    assert error.code == "illegal_card"
    # The first card must match the top card, even if a later one would.
    assert t.refused(0, "play", cards=["green-9", "red-9"]).code == "illegal_card"
    # Only number cards (the engine's decision).
    t.act(0, "play", card="red-4")
    assert t.refused(1, "play", cards=["red-skip", "blue-skip"]).code == "illegal_card"
    assert t.refused(1, "play", cards=["green-2", "green-2"]).code == "card_not_in_hand"
    assert_all_cards(t)


def test_cards_without_multi_play_is_refused() -> None:
    t = HouseScenario(MULTI_HANDS, "red-5")
    error = t.refused(0, "play", cards=["blue-5", "green-5"])
    assert error.code == "invalid"
    assert t.refused(0, "play", cards=["blue-5"]).code == "invalid"
    assert {"action": "play", "card": "blue-5"} in legal_actions(t.state, 0)
    assert_all_cards(t)


def test_no_jump_in_while_a_decision_is_pending() -> None:
    """The engine's decision: no jump-in while the seat to act decides about a drawn card."""
    t = HouseScenario(JUMP_HANDS, "green-1", draws=["blue-5"], jump_in=True)
    t.act(0, "play", card="green-7")
    t.act(1, "draw")  # the blue 5 does not play on the green 7: seat 1's turn ends
    assert t.state.current == 2
    t = HouseScenario(JUMP_HANDS, "green-1", draws=["green-5"], jump_in=True)
    t.act(0, "play", card="green-7")
    t.act(1, "draw")  # the green 5 plays: seat 1 decides whether to play it
    assert t.state.pending is not None
    assert plays(t.state, 2) == []
    assert t.refused(2, "play", card="green-7").code == "not_your_turn"
    t.act(1, "pass")
    t.act(2, "play", card="green-7")  # now it is simply seat 2's turn
    assert t.state.current == 3
    assert_all_cards(t)
