"""The official rules, "A turn": matching, the refusals, drawing, and the action cards."""

from __future__ import annotations

import pytest

from tests.support.scenario import IDLE_1, IDLE_2, Scenario, drawn, the, types

# Seat 0 holds a bit of everything; the starter is red-3 unless a scenario says otherwise.
SEAT_0 = ["red-8", "green-3", "blue-7", "red-skip", "red-reverse", "red-draw2", "wild"]


def three_seats(starter: str = "red-3", draws: list[str] | None = None) -> Scenario:
    return Scenario([SEAT_0, IDLE_1, IDLE_2], starter, draws or [])


# --- matching ------------------------------------------------------------------------------


def test_match_by_colour():
    """A turn: the player "plays one card from their hand that matches the top card in colour
    (the current colour, which a wild sets)"."""
    t = three_seats()
    events = t.act(0, "play", card="red-8")
    assert types(events) == ["card_played", "turn_changed"]
    assert t.state.top_card == "red-8"
    assert t.state.color == "red"
    assert "red-8" not in t.hand(0)
    assert len(t.hand(0)) == 6
    assert t.state.current == 1


def test_match_by_number():
    """... "in number": a green 3 on a red 3; the colour is now green."""
    t = three_seats()
    t.act(0, "play", card="green-3")
    assert t.state.top_card == "green-3"
    assert t.state.color == "green"
    assert t.state.current == 1


def test_match_by_symbol():
    """... "or in symbol (skip on skip, reverse on reverse, draw2 on draw2)": seat 2's yellow skip
    on seat 0's red skip, whatever the colour."""
    t = three_seats()
    t.act(0, "play", card="red-skip")
    assert t.state.current == 2
    t.act(2, "play", card="yellow-skip")
    assert t.state.top_card == "yellow-skip"
    assert t.state.color == "yellow"
    assert t.state.current == 1  # seat 0 skipped seat 1, and seat 2 skips seat 0


def test_a_wild_is_always_allowed_and_the_player_names_the_colour():
    """... "or plays a `wild` (always allowed)". `wild`: "the player names the next colour"; the
    next player must follow that colour (or play a wild)."""
    t = three_seats()
    t.act(0, "play", card="wild", color="blue")  # even while holding red cards
    assert t.state.top_card == "wild"
    assert t.state.color == "blue"
    assert t.state.current == 1
    assert t.refused(1, "play", card="green-7").code == "illegal_card"
    t.act(1, "play", card="blue-2")
    assert t.state.color == "blue"
    assert t.state.current == 2


# --- refusals ------------------------------------------------------------------------------


def test_a_card_that_does_not_match_is_refused():
    """A blue 7 on a red 3 matches nothing: illegal_card (422), and nothing changes."""
    t = three_seats()
    error = t.refused(0, "play", card="blue-7")
    assert error.code == "illegal_card"
    assert t.hand(0) == SEAT_0
    assert t.state.top_card == "red-3"


def test_a_card_not_in_hand_is_refused():
    """One plays "one card from their hand": red-5 is not in seat 0's hand."""
    t = three_seats()
    error = t.refused(0, "play", card="red-5")
    assert error.code == "card_not_in_hand"


def test_out_of_turn_is_refused_with_not_your_turn():
    """Rule book: "The player whose turn it is" plays: seat 1 cannot, even with a matching card."""
    t = three_seats()
    error = t.refused(1, "play", card="wild", color="red")
    assert error.code == "not_your_turn"
    assert t.refused(2, "draw").code == "not_your_turn"


def test_a_wild_needs_a_colour():
    """API: "a wild needs `color`": without it, color_required (422)."""
    t = three_seats()
    error = t.refused(0, "play", card="wild")
    assert error.code == "color_required"


@pytest.mark.parametrize(
    "fields",
    [
        {"card": "red-10"},
        {"card": "purple-3"},
        {"card": "wild-draw2", "color": "red"},
        {"card": 7},
        {"card": "wild", "color": "purple"},
        {"card": "wild", "color": "Red"},
        {"card": "red-8", "color": "red"},  # only a wild takes a colour
    ],
)
def test_an_unknown_card_code_or_colour_is_invalid(fields):
    """Errors (API): "400 | malformed body, unknown card code or colour | invalid"."""
    t = three_seats()
    error = t.refused(0, "play", **fields)
    assert error.code == "invalid"


# --- drawing -------------------------------------------------------------------------------


def test_draw_a_playable_card_and_play_it_that_card_only():
    """Rule book: "If the drawn card is playable they may play it at once (that card only)".
    Seat 0 draws the red 5: it may not play its red 8 now, nor draw again, but may play the red
    5."""
    t = three_seats(draws=["red-5"])
    events = t.act(0, "draw")
    assert drawn(events, 0) == ["red-5"]
    assert the(events, "cards_drawn")["data"]["reason"] == "draw"
    assert t.state.current == 0
    assert t.state.pending is not None
    assert (t.state.pending.kind, t.state.pending.card) == ("play_drawn", "red-5")

    assert t.refused(0, "play", card="red-8").code == "illegal_card"
    assert t.refused(0, "draw").code == "already_drawn"
    t.act(0, "play", card="red-5")
    assert t.state.top_card == "red-5"
    assert t.hand(0) == SEAT_0  # the drawn card went out again
    assert t.state.current == 1


def test_draw_a_playable_card_and_keep_it():
    """Rule book: "... or keep it and pass"."""
    t = three_seats(draws=["red-5"])
    t.act(0, "draw")
    events = t.act(0, "pass")
    assert types(events) == ["passed", "turn_changed"]
    assert t.hand(0) == [*SEAT_0, "red-5"]
    assert t.state.top_card == "red-3"
    assert t.state.current == 1
    assert t.state.pending is None


def test_drawing_an_unplayable_card_ends_the_turn():
    """Rule book: "If it is not playable, their turn ends." """
    t = three_seats(draws=["blue-9"])
    events = t.act(0, "draw")
    assert types(events) == ["cards_drawn", "turn_changed"]
    assert t.hand(0) == [*SEAT_0, "blue-9"]
    assert t.state.current == 1
    assert t.state.pending is None
    assert t.refused(0, "pass").code == "not_your_turn"
    assert t.refused(0, "play", card="red-8").code == "not_your_turn"


def test_pass_without_drawing_is_refused():
    """A player either plays or draws; "pass" only keeps a card just drawn."""
    t = three_seats()
    error = t.refused(0, "pass")
    assert error.code == "nothing_to_pass"


def test_drawing_is_allowed_while_holding_a_playable_card():
    """Rule book: "They may draw even when they hold a playable card." Seat 0 holds the red 8
    and draws."""
    t = three_seats(draws=["yellow-9"])
    t.act(0, "draw")
    assert t.hand(0) == [*SEAT_0, "yellow-9"]
    assert t.state.current == 1


# --- the action cards ----------------------------------------------------------------------


def test_skip_the_next_player_loses_their_turn():
    """Effects: "`skip`: the next player loses their turn." Seat 1 is skipped; seat 2 plays."""
    t = three_seats()
    t.act(0, "play", card="red-skip")
    assert t.state.current == 2
    assert t.hand(1) == IDLE_1
    assert t.refused(1, "draw").code == "not_your_turn"


def test_reverse_flips_the_direction_with_three_players():
    """Rule book: "`reverse`: the direction flips." From seat 0 play goes to seat 2, then seat 1."""
    t = three_seats(draws=["blue-9"])
    t.act(0, "play", card="red-reverse")
    assert t.state.direction == -1
    assert t.state.current == 2
    t.act(2, "draw")  # the blue 9 does not go on the red reverse
    assert t.state.current == 1
    t.act(1, "play", card="blue-reverse")  # reverse on reverse: clockwise again
    assert t.state.direction == 1
    assert t.state.current == 2


def test_draw2_the_next_player_draws_two_and_loses_their_turn():
    """Rule book: "`draw2`: the next player draws 2 cards and loses their turn." """
    t = three_seats(draws=["green-9", "yellow-4"])
    events = t.act(0, "play", card="red-draw2")
    assert drawn(events, 1) == ["green-9", "yellow-4"]
    assert the(events, "cards_drawn")["data"]["reason"] == "penalty"
    assert t.hand(1) == [*IDLE_1, "green-9", "yellow-4"]
    assert t.state.current == 2
    assert t.state.top_card == "red-draw2"


def test_two_player_reverse_acts_as_a_skip():
    """Rule book: "`reverse`: the direction flips. With two players it acts as a skip." """
    t = Scenario([SEAT_0, IDLE_1], "red-3")
    t.act(0, "play", card="red-reverse")
    assert t.state.current == 0
    t.act(0, "play", card="red-8")
    assert t.state.current == 1


def test_two_player_skip_the_player_goes_again():
    """Rule book: "`skip`: the next player loses their turn": with two players, that is the
    other one."""
    t = Scenario([SEAT_0, IDLE_1], "red-3")
    t.act(0, "play", card="red-skip")
    assert t.state.current == 0
    assert t.hand(1) == IDLE_1


def test_two_player_draw2_the_player_goes_again():
    """Rule book: "`draw2`: the next player draws 2 cards and loses their turn." With two
    players, seat 0 plays on."""
    t = Scenario([SEAT_0, IDLE_1], "red-3", ["green-9", "yellow-4"])
    t.act(0, "play", card="red-draw2")
    assert t.hand(1) == [*IDLE_1, "green-9", "yellow-4"]
    assert t.state.current == 0


def test_two_player_wild_draw4_the_player_goes_again():
    """Rule book: "`wild-draw4`: ... the next player draws 4 and loses their turn." With two
    players, seat 1 accepts and seat 0 plays on, in the colour it named."""
    hand = ["wild-draw4", "green-3", "blue-7", "yellow-9", "green-skip", "blue-draw2", "green-8"]
    four = ["blue-1", "blue-2", "yellow-3", "yellow-4"]
    t = Scenario([hand, IDLE_1], "red-3", four)
    t.act(0, "play", card="wild-draw4", color="green")
    assert t.state.actor == 1
    events = t.act(1, "accept")
    assert drawn(events, 1) == four
    assert (t.state.current, t.state.color, t.state.pending) == (0, "green", None)
    t.act(0, "play", card="green-8")
    assert t.state.current == 1
