"""House rules `stacking` and `reverse_bounce`, page by page of the rule book.

> `stacking`: A player facing a draw2 may play a draw2 (any colour) or a wild-draw4 on it; a player
> facing a wild-draw4 may play a wild-draw4, or a draw2 of the colour named, on it. The penalty
> adds up and passes on; the first player who does not stack draws the total and loses their turn.
> A wild-draw4 can be challenged only when it was not stacked on another draw card.
>
> `reverse_bounce`: With `stacking`, a reverse of the current colour played on a pending draw
> penalty sends the whole penalty back to the player who played the last draw card (and flips the
> direction).
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, legal_actions, make_options, time_out
from tests.support.scenario import (
    HouseScenario,
    actions,
    assert_all_cards,
    drawn,
    plays,
)


def test_draw_cards_stack_up_and_the_first_who_does_not_stack_draws_the_total() -> None:
    """A draw2 on a draw2 (any colour), a wild-draw4 on the draw2s: the fourth player owes 8."""
    t = HouseScenario(
        [
            ["red-draw2", "red-1", "red-2", "red-3", "red-4", "red-6", "green-9"],
            ["blue-draw2", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "yellow-9"],
            ["wild-draw4", "green-1", "green-2", "green-3", "green-4", "green-6", "blue-9"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "green-7", "yellow-8"],
        ],
        "red-5",
        draws=["blue-7", "blue-8", "yellow-7", "green-8", "red-7", "red-8", "red-9", "blue-0"],
        stacking=True,
    )
    t.act(0, "play", card="red-draw2")
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 1, 2)
    assert len(t.hand(1)) == 7  # nobody has drawn yet: the penalty waits

    t.act(1, "play", card="blue-draw2")  # a draw2 of another colour stacks
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount) == (2, 4)
    assert t.state.color == "blue"

    t.act(2, "play", card="wild-draw4", color="green")  # a wild-draw4 stacks on a draw2
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 3, 8)
    assert t.state.color == "green"

    # Seat 3 holds no draw card: a green card is no answer to a penalty, and the stacked
    # wild-draw4 cannot be challenged (nor "accepted": the answer is to draw the total).
    assert legal_actions(t.state, 3) == [{"action": "draw"}]
    assert t.refused(3, "play", card="green-7").code == "illegal_card"
    error = t.refused(3, "challenge")
    assert error.code == "nothing_to_challenge"
    assert t.refused(3, "accept").code == "nothing_to_challenge"

    events = t.act(3, "draw")
    assert drawn(events, 3) == [
        "blue-7", "blue-8", "yellow-7", "green-8", "red-7", "red-8", "red-9", "blue-0"
    ]  # fmt: skip
    assert len(t.hand(3)) == 15
    assert t.state.pending is None
    assert t.state.current == 0  # seat 3 lost its turn
    assert t.state.color == "green"
    assert_all_cards(t)


def test_wild_draw4_on_wild_draw4_then_draw2_of_the_named_colour() -> None:
    """On a wild-draw4 only a wild-draw4 or a draw2 of the colour named may be stacked."""
    t = HouseScenario(
        [
            ["wild-draw4", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
            ["wild-draw4", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7"],
            ["blue-draw2", "yellow-draw2", "green-1", "green-2", "green-3", "green-4", "green-6"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "red-draw2"],
        ],
        "red-5",
        stacking=True,
    )
    t.act(0, "play", card="wild-draw4", color="blue")
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("wild_draw4", 1, 4)
    # The lone wild-draw4: challenge, accept, or stack a wild-draw4 (once per colour).
    assert {"action": "challenge"} in legal_actions(t.state, 1)
    assert {"action": "accept"} in legal_actions(t.state, 1)
    assert {"action": "play", "card": "wild-draw4", "color": "yellow"} in plays(t.state, 1)

    t.act(1, "play", card="wild-draw4", color="yellow")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount) == (2, 8)

    # Seat 2 holds a blue and a yellow draw2: yellow is the colour named.
    assert plays(t.state, 2) == [{"action": "play", "card": "yellow-draw2"}]
    assert t.refused(2, "play", card="blue-draw2").code == "illegal_card"
    assert t.refused(2, "play", card="green-1").code == "illegal_card"
    t.act(2, "play", card="yellow-draw2")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount) == (3, 10)

    # Seat 3 may stack its red draw2 on the yellow draw2 (any colour on a draw2) but draws.
    assert plays(t.state, 3) == [{"action": "play", "card": "red-draw2"}]
    events = t.act(3, "draw")
    assert len(drawn(events, 3)) == 10
    assert len(t.hand(3)) == 17
    assert (t.state.current, t.state.pending) == (0, None)
    assert t.state.color == "yellow"
    assert_all_cards(t)


def lone_draw_four() -> HouseScenario:
    """Seat 0 plays a wild-draw4 naming blue while holding red cards (a bluff) on seat 1."""
    t = HouseScenario(
        [
            ["wild-draw4", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
            ["blue-draw2", "green-draw2", "green-1", "green-2", "green-3", "green-4", "green-6"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
        ],
        "red-5",
        stacking=True,
    )
    t.act(0, "play", card="wild-draw4", color="blue")
    return t


def test_a_lone_wild_draw4_can_still_be_challenged() -> None:
    """Challenged and guilty: the bluffer draws 4, the colour stays red, the challenger plays."""
    t = lone_draw_four()
    events = t.act(1, "challenge")
    challenge = next(e for e in events if e["type"] == "challenged")
    assert challenge["data"]["guilty"] is True
    assert len(drawn(events, 0)) == 4
    assert len(t.hand(0)) == 10
    assert len(t.hand(1)) == 7
    assert t.state.color == "red"
    assert (t.state.current, t.state.pending) == (1, None)
    assert_all_cards(t)


def test_a_lone_wild_draw4_can_still_be_accepted() -> None:
    t = lone_draw_four()
    events = t.act(1, "accept")
    assert len(drawn(events, 1)) == 4
    assert (t.state.current, t.state.pending) == (2, None)
    assert t.state.color == "blue"
    assert_all_cards(t)


def test_a_draw2_of_the_named_colour_stacks_on_a_lone_wild_draw4() -> None:
    """The draw2 must be of the colour named; once stacked, the wild-draw4 is out of reach."""
    t = lone_draw_four()
    assert t.refused(1, "play", card="green-draw2").code == "illegal_card"
    t.act(1, "play", card="blue-draw2")
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 2, 6)
    assert "challenge" not in actions(t.state, 2)
    assert t.refused(2, "challenge").code == "nothing_to_challenge"
    events = t.act(2, "draw")
    assert len(drawn(events, 2)) == 6
    assert (t.state.current, t.state.pending) == (0, None)
    assert_all_cards(t)


def test_without_stacking_a_draw2_cannot_be_answered_with_a_draw2() -> None:
    """The official rule, for contrast: the next player draws 2 at once and loses the turn."""
    t = HouseScenario(
        [
            ["red-draw2", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
            ["blue-draw2", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
        ],
        "red-5",
    )
    events = t.act(0, "play", card="red-draw2")
    assert len(drawn(events, 1)) == 2
    assert (t.state.current, t.state.pending) == (2, None)
    assert_all_cards(t)


BOUNCE_HANDS = [
    ["red-draw2", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
    ["red-draw2", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7"],
    ["red-reverse", "blue-reverse", "green-1", "green-2", "green-3", "green-4", "green-6"],
    ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
]


def test_reverse_bounce_sends_the_penalty_back_to_who_played_the_last_draw_card() -> None:
    """Seat 0 and seat 1 stack draw2s; seat 2 bounces the 4 back to seat 1 with a red reverse."""
    t = HouseScenario(BOUNCE_HANDS, "red-5", stacking=True, reverse_bounce=True)
    t.act(0, "play", card="red-draw2")
    t.act(1, "play", card="red-draw2")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount) == (2, 4)

    # Only a reverse of the current colour (red) bounces.
    assert {"action": "play", "card": "red-reverse"} in plays(t.state, 2)
    assert {"action": "play", "card": "blue-reverse"} not in plays(t.state, 2)
    assert t.refused(2, "play", card="blue-reverse").code == "illegal_card"

    t.act(2, "play", card="red-reverse")
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 1, 4)
    assert t.state.direction == -1
    assert len(t.hand(2)) == 6  # the bouncer draws nothing

    events = t.act(1, "draw")
    assert len(drawn(events, 1)) == 4
    assert len(t.hand(1)) == 10
    # Seat 1 lost its turn; play goes on counter-clockwise from it.
    assert (t.state.current, t.state.pending, t.state.direction) == (0, None, -1)
    assert_all_cards(t)


def test_without_reverse_bounce_a_reverse_is_no_answer_to_a_penalty() -> None:
    t = HouseScenario(BOUNCE_HANDS, "red-5", stacking=True)
    t.act(0, "play", card="red-draw2")
    t.act(1, "play", card="red-draw2")
    assert t.refused(2, "play", card="red-reverse").code == "illegal_card"
    assert plays(t.state, 2) == []
    t.act(2, "draw")
    assert (len(t.hand(2)), t.state.current, t.state.direction) == (11, 3, 1)
    assert_all_cards(t)


def test_reverse_bounce_without_stacking_is_refused() -> None:
    with pytest.raises(IllegalMove) as info:
        make_options({"reverse_bounce": True})
    assert info.value.code == "invalid_rules"
    with pytest.raises(IllegalMove) as info:
        HouseScenario(BOUNCE_HANDS, "red-5", reverse_bounce=True)
    assert info.value.code == "invalid_rules"
    assert make_options({"reverse_bounce": True, "stacking": True}).reverse_bounce is True


def test_a_bounced_penalty_may_be_bounced_again() -> None:
    """The engine's decision: the seat the penalty came back to may bounce it on once more."""
    t = HouseScenario(
        [
            ["red-draw2", "red-reverse", "red-1", "red-2", "red-3", "red-4", "red-6"],
            ["red-reverse", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6", "blue-7"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
        ],
        "red-5",
        stacking=True,
        reverse_bounce=True,
    )
    t.act(0, "play", card="red-draw2")
    t.act(1, "play", card="red-reverse")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount, t.state.direction) == (0, 2, -1)
    assert {"action": "play", "card": "red-reverse"} in plays(t.state, 0)
    t.act(0, "play", card="red-reverse")
    assert t.state.pending is not None
    assert (t.state.pending.seat, t.state.pending.amount, t.state.direction) == (1, 2, 1)
    t.act(1, "draw")
    assert (len(t.hand(1)), t.state.current, t.state.pending) == (8, 2, None)
    assert_all_cards(t)


def test_reverse_bounce_on_a_wild_draw4_needs_the_colour_named() -> None:
    """A bounced wild-draw4 is no longer a lone one: its player cannot challenge it."""
    t = HouseScenario(
        [
            ["wild-draw4", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"],
            ["blue-reverse", "red-reverse", "blue-1", "blue-2", "blue-3", "blue-4", "blue-6"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"],
        ],
        "red-5",
        stacking=True,
        reverse_bounce=True,
    )
    t.act(0, "play", card="wild-draw4", color="blue")
    assert t.refused(1, "play", card="red-reverse").code == "illegal_card"
    t.act(1, "play", card="blue-reverse")
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.amount) == ("draw_penalty", 0, 4)
    assert t.refused(0, "challenge").code == "nothing_to_challenge"
    t.act(0, "draw")
    assert (len(t.hand(0)), t.state.current, t.state.direction) == (10, 2, -1)
    assert_all_cards(t)


def test_going_out_on_a_draw2_makes_the_next_player_draw_at_once() -> None:
    """The engine's decision: a card that empties a hand applies its draw with no stacking."""
    skips = ["red-skip", "red-skip", "blue-skip", "blue-skip", "green-skip", "green-skip"]
    seat_1 = ["blue-draw2", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "blue-9"]
    t = HouseScenario(
        [[*skips, "green-draw2"], seat_1], "red-5", draws=["red-9", "red-8"], stacking=True
    )
    for i, card in enumerate(skips):  # with two players a skip gives seat 0 another turn
        t.act(0, "play", card=card, uno=i == len(skips) - 1)
    events = t.act(0, "play", card="green-draw2")  # seat 1 holds a draw2 but may not stack
    assert drawn(events, 1) == ["red-9", "red-8"]
    result = t.state.last_round
    assert result is not None
    assert result.winner_seat == 0
    assert sorted(result.hands[1]) == sorted([*seat_1, "red-9", "red-8"])
    assert result.points[0] == 20 + 1 + 2 + 3 + 4 + 6 + 9 + 9 + 8
    assert_all_cards(t)


def test_a_timeout_facing_a_stacked_penalty_draws_the_total() -> None:
    t = HouseScenario(BOUNCE_HANDS, "red-5", stacking=True)
    t.act(0, "play", card="red-draw2")
    t.act(1, "play", card="red-draw2")
    events, t.state = time_out(t.state)
    t.log += events
    assert len(drawn(events, 2)) == 4
    assert (t.state.current, t.state.pending) == (3, None)
    assert_all_cards(t)


def test_no_stacking_on_a_draw2_starter() -> None:
    """The rule book: "Seven-zero and other house effects do not apply to the starter card".

    The first player draws 2 and is skipped, though it holds a draw2.
    """
    t = HouseScenario(BOUNCE_HANDS, "blue-draw2", draws=["green-8", "green-9"], stacking=True)
    assert drawn(t.log, 0) == ["green-8", "green-9"]
    assert (len(t.hand(0)), t.state.current, t.state.pending) == (9, 1, None)
    assert_all_cards(t)
