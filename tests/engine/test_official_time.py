"""The official rules, "Time": the server acts for a player who runs out of time, and forfeits.

"Each game has a `turn_timeout` (seconds). When the player who must act does not act in time, the
server acts for them". ``time_out(state)`` is that server action; ``resign(state, seat)`` is a
player leaving a started game for good, "as a forfeit".
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import IllegalMove, legal_actions, replay, take_over
from tests.support.scenario import (
    IDLE_1,
    IDLE_2,
    UNPLAYABLE,
    Scenario,
    drawn,
    the,
    types,
)

SEAT_0 = ["red-8", "green-3", "blue-7", "red-skip", "yellow-6", "wild-draw4", "blue-draw2"]


def three_seats(draws=(), **options) -> Scenario:
    return Scenario([SEAT_0, IDLE_1, IDLE_2], "red-3", list(draws), **options)


def test_timeout_on_a_turn_draws_one_card_and_the_turn_passes():
    """Rule book: "their turn: they draw one card and the turn passes (they keep the card)" —
    even a card that could be played."""
    t = three_seats(["red-5"])
    events = t.time_out()
    assert types(events) == ["timed_out", "cards_drawn", "turn_changed"]
    assert the(events, "timed_out")["seat"] == 0
    assert the(events, "timed_out")["data"]["count"] == 1
    assert the(events, "cards_drawn")["data"]["auto"] is True
    assert drawn(events, 0) == ["red-5"]
    assert t.hand(0) == [*SEAT_0, "red-5"]
    assert t.state.top_card == "red-3"
    assert t.state.current == 1
    assert t.state.pending is None
    assert t.state.timeouts == (1, 0, 0)


def test_timeout_on_a_drawn_playable_card_keeps_it_and_passes():
    """Rule book: "deciding about a drawn playable card: they keep it and pass"."""
    t = three_seats(["red-5"])
    t.act(0, "draw")
    events = t.time_out()
    assert types(events) == ["timed_out", "passed", "turn_changed"]
    assert the(events, "passed")["data"]["auto"] is True
    assert t.hand(0) == [*SEAT_0, "red-5"]
    assert t.state.top_card == "red-3"
    assert t.state.current == 1


def test_timeout_facing_a_wild_draw4_accepts_it():
    """Rule book: "facing a wild-draw4: they accept (draw 4, lose the turn)"."""
    four = ["green-1", "green-2", "yellow-3", "yellow-4"]
    t = three_seats(four)
    t.act(0, "play", card="wild-draw4", color="blue")
    events = t.time_out()
    assert the(events, "timed_out")["seat"] == 1
    assert drawn(events, 1) == four
    assert "challenged" not in types(events)
    assert t.hand(1) == [*IDLE_1, *four]
    assert t.state.color == "blue"
    assert t.state.current == 2
    assert t.state.pending is None


@pytest.mark.parametrize(
    ("hand", "color"),
    [
        # most held: green (3), whatever else
        (["green-1", "green-2", "green-3", "red-4", "red-5", "blue-6", "wild-draw4"], "green"),
        # ties: red, yellow, green, blue
        (["yellow-1", "yellow-2", "blue-5", "blue-6", "red-4", "green-5", "wild-draw4"], "yellow"),
        (["red-1", "red-2", "yellow-3", "green-5", "green-6", "blue-5", "blue-6"], "red"),
        (["green-1", "green-2", "blue-5", "blue-6", "wild-draw4", "wild-draw4", "wild"], "green"),
        (["blue-1", "blue-5", "blue-6", "red-4", "red-5", "wild-draw4", "wild"], "blue"),
    ],
)
def test_timeout_on_a_starter_wild_names_the_most_held_colour(hand, color):
    """Rule book: "naming a colour for a starter wild: the colour they hold most of (ties: red,
    yellow, green, blue)." Wilds are no colour. Then the seat still has its turn to play."""
    t = Scenario([hand, IDLE_1, IDLE_2], "wild")
    events = t.time_out()
    assert types(events) == ["timed_out", "color_chosen", "turn_changed"]
    chosen = the(events, "color_chosen")
    assert chosen["seat"] == 0
    assert chosen["data"] == {"color": color, "auto": True}
    assert t.state.color == color
    assert t.state.current == 0
    assert t.state.pending is None
    assert t.hand(0) == hand


def test_forfeit_after_max_timeouts_consecutive_timeouts():
    """Rule book: "After `max_timeouts` consecutive timeouts (default 3) the player forfeits:
    their cards are shuffled into the draw pile and they take no further part." Seat 0 sleeps
    through three of its turns; seats 1 and 2 draw on theirs. After that play goes 1, 2, 1, 2."""
    t = three_seats(UNPLAYABLE)
    for count in (1, 2, 3):
        if count > 1:
            t.draw_and_keep(1)
            t.draw_and_keep(2)
        before = t.state
        events = t.time_out()
        assert the(events, "timed_out")["data"]["count"] == count
    assert types(events) == ["timed_out", "cards_drawn", "turn_changed", "forfeited"]
    forfeited = the(events, "forfeited")
    assert forfeited["seat"] == 0
    assert forfeited["data"]["reason"] == "timeout"

    held = [*before.hands[0], *drawn(events, 0)]  # 7 dealt + 3 drawn by the server
    assert len(held) == 10
    assert t.hand(0) == []
    assert Counter(t.state.draw_pile) == Counter(before.draw_pile[1:]) + Counter(held)
    assert t.state.statuses == ("forfeited", "playing", "playing")
    assert t.state.status == "active"
    assert legal_actions(t.state, 0) == []
    error = t.refused(0, "draw")
    assert error.code == "not_a_player"

    assert t.state.current == 1
    t.draw_and_keep(1)
    assert t.state.current == 2
    t.draw_and_keep(2)
    assert t.state.current == 1  # seat 0 is skipped


def test_acting_resets_the_count_of_consecutive_timeouts():
    """Only *consecutive* timeouts count: seat 0 times out twice, then plays its turn itself; its
    next timeout is the first again."""
    t = three_seats(UNPLAYABLE)
    t.time_out()
    t.draw_and_keep(1)
    t.draw_and_keep(2)
    t.time_out()
    assert t.state.timeouts == (2, 0, 0)
    t.draw_and_keep(1)
    t.draw_and_keep(2)
    t.act(0, "play", card="red-8")
    assert t.state.timeouts == (0, 0, 0)
    t.draw_and_keep(1)
    t.draw_and_keep(2)
    events = t.time_out()
    assert the(events, "timed_out")["data"]["count"] == 1
    assert "forfeited" not in types(events)
    assert t.state.statuses == ("playing", "playing", "playing")


def test_a_seat_taken_over_after_its_last_timeout_is_logged_and_starts_with_no_timeouts():
    """``bot_takeover``: the log tells when a bot took the seat (a replay, a stream and an export
    show it); who plays a seat changes none of the rules, only the seat's count of timeouts,
    which was its player's."""
    t = three_seats(UNPLAYABLE)
    for count in (1, 2, 3):
        if count > 1:
            t.draw_and_keep(1)
            t.draw_and_keep(2)
        t.time_out(forfeit=False)
    before = t.state
    events = t.take_over(0, "timeout")
    assert events == [{"type": "seat_taken_over", "seat": 0, "data": {"reason": "timeout"}}]
    assert t.state.timeouts == (0, 0, 0) and before.timeouts[0] == 3
    assert (t.state.current, t.state.hands, t.state.statuses) == (
        before.current,
        before.hands,
        before.statuses,
    )
    assert replay(t.log) == t.state


def test_a_seat_is_taken_over_only_while_it_plays_in_an_active_game():
    t = three_seats()
    t.resign(1)
    with pytest.raises(IllegalMove) as left:
        take_over(t.state, 1, "resign")
    assert left.value.code == "not_a_player"
    with pytest.raises(IllegalMove) as nobody:
        take_over(t.state, 5, "resign")
    assert nobody.value.code == "not_a_player"
    t.resign(2)
    assert t.state.status == "finished"
    with pytest.raises(IllegalMove) as over:
        take_over(t.state, 0, "resign")
    assert over.value.code == "game_not_active"


def test_a_last_timeout_without_the_forfeit_keeps_the_seat():
    """``forfeit=False`` (the service's bot_takeover: a bot plays on for the seat): the third
    timeout is one as the others are, its move made for the seat, and the seat plays on."""
    t = three_seats(UNPLAYABLE)
    for count in (1, 2, 3):
        if count > 1:
            t.draw_and_keep(1)
            t.draw_and_keep(2)
        events = t.time_out(forfeit=False)
        assert the(events, "timed_out")["data"]["count"] == count
    assert types(events) == ["timed_out", "cards_drawn", "turn_changed"]
    assert t.state.statuses == ("playing", "playing", "playing")
    assert t.state.timeouts[0] == 3 and t.state.current == 1


def test_a_two_player_game_ends_by_forfeit_and_the_other_wins():
    """Rule book: "A game left with one active player ends, and that player wins it."
    (max_timeouts 2)"""
    t = Scenario([SEAT_0, IDLE_1], "red-3", UNPLAYABLE, max_timeouts=2)
    t.time_out()
    t.draw_and_keep(1)
    events = t.time_out()
    assert types(events)[-2:] == ["forfeited", "game_ended"]
    assert the(events, "game_ended")["data"] == {"winner_seat": 1, "reason": "forfeit"}
    assert t.state.status == "finished"
    assert t.state.winner == 1
    assert t.refused(1, "draw").code == "game_not_active"
    with pytest.raises(Exception, match="over"):
        t.time_out()


def test_resign_is_a_forfeit():
    """API: "resign: leave a started game for good: as a forfeit". Seat 1 resigns while seat 0
    is to play: its cards go into the draw pile and play skips it from then on."""
    t = three_seats()
    pile = t.state.draw_pile
    events = t.resign(1)
    assert types(events) == ["forfeited"]
    assert the(events, "forfeited")["data"]["reason"] == "resign"
    assert t.hand(1) == []
    assert Counter(t.state.draw_pile) == Counter(pile) + Counter(IDLE_1)
    assert t.state.statuses == ("playing", "forfeited", "playing")
    assert t.state.current == 0
    t.act(0, "play", card="red-8")
    assert t.state.current == 2
    assert t.refused(1, "draw").code == "not_a_player"


def test_resign_on_ones_own_turn_passes_the_turn():
    """A seat that resigns while the game waits for it: the next seat plays."""
    t = three_seats()
    t.resign(0)
    assert t.state.current == 1
    assert t.state.pending is None


def test_resign_in_a_two_player_game_the_other_wins():
    """Rule book: "A game left with one active player ends, and that player wins it." """
    t = Scenario([SEAT_0, IDLE_1], "red-3")
    events = t.resign(0)
    assert types(events) == ["forfeited", "game_ended"]
    assert the(events, "game_ended")["data"] == {"winner_seat": 1, "reason": "forfeit"}
    assert t.state.status == "finished"
    assert t.state.winner == 1


def test_resign_before_naming_the_starter_colour_the_next_player_names_it():
    """Starter `wild`: "the first player ... names the colour". Seat 0 resigns before naming
    it: the game still needs a colour, so seat 1, now the first player, names it."""
    t = Scenario([SEAT_0, IDLE_1, IDLE_2], "wild")
    t.resign(0)
    assert t.state.actor == 1
    assert t.state.pending is not None and t.state.pending.kind == "color"
    t.act(1, "color", color="blue")
    assert t.state.color == "blue"
    t.act(1, "play", card="blue-2")
    assert t.state.current == 2


def test_a_forfeited_seat_takes_no_part_in_the_next_deal():
    """Rule book: the forfeiting player "take[s] no further part"; "each later round the dealer
    moves one seat clockwise". Seat 0 resigns in round 1; when seat 1 goes out, round 2 is
    dealt to seats 2 and 1 only, by seat 1: the dealer's seat after seat 2 would be seat 0,
    which has left (the engine's decision: the dealer moves on to the next seat still in)."""
    t = Scenario([IDLE_1, SEAT_0, IDLE_2], "red-9")
    t.resign(0)
    assert t.state.current == 1
    rest = [c for c in SEAT_0 if c != "red-8"]
    t.set_table(
        hands=((), ("red-8",), t.state.hands[2]),
        discard_pile=(*rest, *t.state.discard_pile),
    )
    events = t.act(1, "play", card="red-8")
    started = the(events, "round_started")["data"]
    assert (started["number"], started["dealer"], started["seats"]) == (2, 1, [2, 1])
    assert t.hand(0) == []
    assert len(t.hand(1)) == len(t.hand(2)) == 7
    assert t.state.statuses == ("forfeited", "playing", "playing")


def test_a_seat_that_forfeits_facing_a_draw_penalty_leaves_it_unpaid():
    """The engine's decision (the rule book is silent): a seat that leaves while it owes a
    stacked penalty takes it with it; nobody else pays, and the next seat plays on."""
    first = ["red-draw2", "red-1", "red-2", "red-3", "red-4", "red-6", "red-7"]
    t = Scenario([first, IDLE_1, IDLE_2], "red-5", stacking=True)
    t.act(0, "play", card="red-draw2")
    assert t.state.pending is not None and t.state.pending.seat == 1
    pile = len(t.state.draw_pile)
    t.resign(1)
    assert (t.state.current, t.state.pending) == (2, None)
    assert len(t.hand(2)) == 7 and len(t.state.draw_pile) == pile + 7


def test_the_wild_draw4_of_a_seat_that_forfeits_stands():
    """The engine's decision: a wild-draw4 whose player leaves before the answer can no longer
    be challenged (there is no hand to show): the next player draws the 4 and loses its turn."""
    bluffer = ["wild-draw4", "red-1", "red-2", "red-4", "red-6", "red-7", "red-8"]
    t = Scenario([bluffer, IDLE_1, IDLE_2], "red-5")
    t.act(0, "play", card="wild-draw4", color="blue")
    t.resign(0)
    assert t.state.pending is not None and t.state.pending.kind == "draw_penalty"
    assert t.refused(1, "challenge").code == "nothing_to_challenge"
    events = t.act(1, "draw")
    assert len(drawn(events, 1, reason="take")) == 4  # the pile was shuffled with seat 0's cards
    assert (t.state.current, t.state.color) == (2, "blue")
