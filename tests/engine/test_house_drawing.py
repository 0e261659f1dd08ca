"""House rules `draw_until_playable`, `force_play` and `no_action_finish`.

> `draw_until_playable`: A player who draws keeps drawing until they draw a playable card, which
> they may then play.
>
> `force_play`: A drawn card that is playable must be played.
>
> `no_action_finish`: A player may not go out on an action or wild card; holding only such cards
> they must draw.
"""

from __future__ import annotations

from games.engine import act, legal_actions
from tests.support.scenario import HouseScenario, assert_all_cards, drawn, plays

# Seat 0 holds no red card and no 5: nothing it holds plays on the red-5 starter.
NO_RED = ["blue-1", "blue-2", "green-3", "yellow-4", "blue-6", "green-7", "yellow-8"]
OTHERS = [
    ["yellow-1", "yellow-2", "yellow-3", "green-4", "yellow-6", "yellow-7", "green-8"],
    ["green-1", "green-2", "blue-3", "blue-4", "green-6", "blue-7", "blue-8"],
]
UNPLAYABLE_THEN_RED = ["green-9", "yellow-9", "blue-0", "red-9", "green-0"]


def test_draw_until_playable_keeps_drawing_and_may_play_the_playable_card() -> None:
    t = HouseScenario(
        [NO_RED, *OTHERS], "red-5", draws=UNPLAYABLE_THEN_RED, draw_until_playable=True
    )
    events = t.act(0, "draw")
    assert drawn(events, 0) == ["green-9", "yellow-9", "blue-0", "red-9"]
    assert len(t.hand(0)) == 11
    pending = t.state.pending
    assert pending is not None
    assert (pending.kind, pending.seat, pending.card) == ("play_drawn", 0, "red-9")
    # Only the card that ended the drawing may be played now, or kept.
    assert plays(t.state, 0) == [{"action": "play", "card": "red-9"}]
    assert t.refused(0, "play", card="blue-0").code == "illegal_card"
    t.act(0, "play", card="red-9")
    assert (t.state.top_card, t.state.current, len(t.hand(0))) == ("red-9", 1, 10)
    assert_all_cards(t)


def test_draw_until_playable_the_playable_card_may_be_kept() -> None:
    t = HouseScenario(
        [NO_RED, *OTHERS], "red-5", draws=UNPLAYABLE_THEN_RED, draw_until_playable=True
    )
    t.act(0, "draw")
    t.act(0, "pass")
    assert (t.state.current, t.state.pending, t.state.top_card) == (1, None, "red-5")
    assert "red-9" in t.hand(0)
    assert_all_cards(t)


def test_without_draw_until_playable_a_draw_is_one_card() -> None:
    t = HouseScenario([NO_RED, *OTHERS], "red-5", draws=UNPLAYABLE_THEN_RED)
    events = t.act(0, "draw")
    assert drawn(events, 0) == ["green-9"]
    assert (t.state.current, t.state.pending) == (1, None)  # not playable: the turn ends
    assert_all_cards(t)


def test_force_play_a_playable_drawn_card_must_be_played() -> None:
    t = HouseScenario([NO_RED, *OTHERS], "red-5", draws=["red-9"], force_play=True)
    t.act(0, "draw")
    assert legal_actions(t.state, 0) == [{"action": "play", "card": "red-9"}]  # no pass
    error = t.refused(0, "pass")
    assert error.code == "must_play"
    t.act(0, "play", card="red-9")
    assert (t.state.top_card, t.state.current) == ("red-9", 1)
    assert_all_cards(t)


def test_force_play_an_unplayable_drawn_card_ends_the_turn() -> None:
    t = HouseScenario([NO_RED, *OTHERS], "red-5", draws=["green-9"], force_play=True)
    t.act(0, "draw")
    assert (t.state.current, t.state.pending, len(t.hand(0))) == (1, None, 8)
    assert_all_cards(t)


def test_force_play_does_not_stop_a_player_drawing_instead_of_playing() -> None:
    """Drawing while holding a playable card stays allowed: only the drawn card is forced."""
    holds_red = ["red-1", *NO_RED[1:]]
    t = HouseScenario([holds_red, *OTHERS], "red-5", draws=["green-9"], force_play=True)
    assert {"action": "draw"} in legal_actions(t.state, 0)
    t.act(0, "draw")
    assert (t.state.current, len(t.hand(0))) == (1, 8)
    assert_all_cards(t)


def test_without_force_play_a_playable_drawn_card_may_be_kept() -> None:
    t = HouseScenario([NO_RED, *OTHERS], "red-5", draws=["red-9"])
    t.act(0, "draw")
    assert {"action": "pass"} in legal_actions(t.state, 0)
    t.act(0, "pass")
    assert (t.state.current, t.state.top_card) == (1, "red-5")
    assert_all_cards(t)


# With two players a skip is played again by the same player: seat 0 sheds its skips one by one.
SKIPS = ["red-skip", "red-skip", "blue-skip", "blue-skip", "green-skip", "green-skip"]
SEAT_1 = ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-6", "yellow-7", "yellow-8"]


def shed_skips(t: HouseScenario) -> None:
    for i, card in enumerate(SKIPS):
        t.act(0, "play", card=card, uno=i == len(SKIPS) - 1)
        assert t.state.current == 0


def test_no_action_finish_a_player_may_not_go_out_on_an_action_card() -> None:
    t = HouseScenario(
        [[*SKIPS, "yellow-skip"], SEAT_1], "red-5", draws=["blue-9"], no_action_finish=True
    )
    shed_skips(t)
    assert t.hand(0) == ["yellow-skip"]  # it matches the green skip on top, by symbol
    error = t.refused(0, "play", card="yellow-skip")
    assert error.code == "illegal_card"
    assert legal_actions(t.state, 0) == [{"action": "draw"}]  # holding only an action: draw
    t.act(0, "draw")
    assert t.hand(0) == ["yellow-skip", "blue-9"]
    assert (t.state.current, t.state.status) == (1, "active")
    assert_all_cards(t)


def test_no_action_finish_a_player_may_not_go_out_on_a_wild() -> None:
    t = HouseScenario([[*SKIPS, "wild"], SEAT_1], "red-5", no_action_finish=True)
    shed_skips(t)
    assert t.refused(0, "play", card="wild", color="red").code == "illegal_card"
    assert plays(t.state, 0) == []
    assert_all_cards(t)


def test_no_action_finish_going_out_on_a_number_card_is_fine() -> None:
    t = HouseScenario([[*SKIPS, "green-3"], SEAT_1], "red-5", no_action_finish=True)
    shed_skips(t)
    assert plays(t.state, 0) == [{"action": "play", "card": "green-3"}]
    t.act(0, "play", card="green-3")
    assert t.state.last_round is not None
    assert t.state.last_round.winner_seat == 0
    assert t.state.round_number == 2
    assert_all_cards(t)


def test_without_no_action_finish_a_player_goes_out_on_an_action_card() -> None:
    t = HouseScenario([[*SKIPS, "yellow-skip"], SEAT_1], "red-5")
    shed_skips(t)
    t.act(0, "play", card="yellow-skip")
    assert t.state.last_round is not None
    assert t.state.last_round.winner_seat == 0
    assert_all_cards(t)


def test_draw_until_playable_from_exhausted_piles_is_still_the_players_move() -> None:
    """Both piles empty: the draw brings nothing, but it is the seat's move all the same."""
    t = HouseScenario(
        [
            ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"],
            ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6", "blue-7"],
        ],
        "green-9",
        draw_until_playable=True,
    )
    state = t.state.evolve(draw_pile=(), catchable=frozenset({1}))
    events, after = act(state, 0, {"action": "draw"})
    assert [e["type"] for e in events] == ["cards_drawn", "turn_changed"]
    assert events[0]["data"]["cards"] == []
    assert after.catchable == frozenset()
    assert after.current == 1
