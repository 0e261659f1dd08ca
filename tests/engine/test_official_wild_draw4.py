"""The official rules, `wild-draw4`: when it is legal, the bluff, and the challenge.

"`wild-draw4`: the player names the next colour; the next player draws 4 and loses their turn.
It is only legal when the player holds no card of the current colour (cards matching only by
number or symbol do not count; other wilds do not count). The player may still play it illegally
(a bluff): the server accepts it, and the next player may challenge instead of accepting."
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from games.engine import event_view, legal_actions
from tests.support.scenario import IDLE_2, Scenario, drawn, the, types

# The top card is a red 3 in every scenario here.
# Seat 0 holds no red: the green 3 matches by number only, the wild is another wild.
INNOCENT = ["wild-draw4", "green-3", "wild", "blue-7", "yellow-9", "green-skip", "blue-draw2"]
# Seat 0 holds a red 8: a wild-draw4 now is a bluff.
GUILTY = ["wild-draw4", "red-8", "green-3", "blue-7", "yellow-9", "green-skip", "blue-draw2"]
# The victim, seat 1, holds a red card and a blue one.
VICTIM = ["red-6", "blue-1", "blue-2", "green-7", "yellow-5", "wild", "blue-skip"]
FOUR = ["green-1", "green-2", "yellow-3", "yellow-4"]
SIX = [*FOUR, "blue-5", "blue-6"]


def test_wild_draw4_accepted_the_next_player_draws_four_and_loses_the_turn():
    """Seat 0 holds no red and plays the wild-draw4 naming green; seat 1 accepts it."""
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="green")
    assert t.state.top_card == "wild-draw4"
    assert t.state.color == "green"
    assert t.state.actor == 1
    assert t.state.pending is not None and t.state.pending.kind == "wild_draw4"

    events = t.act(1, "accept")
    assert drawn(events, 1) == FOUR
    assert t.hand(1) == [*VICTIM, *FOUR]
    assert t.state.color == "green"
    assert t.state.current == 2
    assert t.state.pending is None


def test_the_victim_must_answer_the_wild_draw4():
    """The next player "may challenge instead of accepting": nothing else (official rules)."""
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="green")
    assert legal_actions(t.state, 1) == [{"action": "challenge"}, {"action": "accept"}]
    assert t.refused(1, "draw").code == "answer_required"
    assert t.refused(1, "play", card="green-7").code == "illegal_card"


def test_wild_draw4_needs_a_colour():
    """Rule book: "the player names the next colour": color_required without one."""
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3")
    error = t.refused(0, "play", card="wild-draw4")
    assert error.code == "color_required"


def test_a_bluff_is_accepted_by_the_server():
    """Rule book: "The player may still play it illegally (a bluff): the server accepts it"."""
    t = Scenario([GUILTY, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="blue")
    assert t.state.top_card == "wild-draw4"
    assert t.state.color == "blue"
    t.act(1, "accept")  # unchallenged, the bluff stands
    assert t.hand(1) == [*VICTIM, *FOUR]
    assert t.state.current == 2


def test_challenge_guilty_the_bluffer_draws_four_and_the_colour_reverts():
    """Rule book: "challenged and guilty (held a card of the current colour): the challenged
    player draws 4 instead, the colour choice is annulled (the colour stays what it was before
    the wild-draw4) and the challenger plays their turn normally"."""
    t = Scenario([GUILTY, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="blue")
    events = t.act(1, "challenge")

    challenged = the(events, "challenged")
    assert challenged["seat"] == 1
    assert challenged["data"]["target"] == 0
    assert challenged["data"]["guilty"] is True
    assert challenged["data"]["color"] == "red"
    assert challenged["data"]["hand"] == GUILTY[1:]
    assert drawn(events, 0, reason="bluff") == FOUR
    assert t.hand(0) == [*GUILTY[1:], *FOUR]
    assert t.hand(1) == VICTIM
    assert t.state.color == "red"
    assert t.state.current == 1
    assert t.state.pending is None

    assert t.refused(1, "play", card="blue-1").code == "illegal_card"  # blue was annulled
    t.act(1, "play", card="red-6")
    assert t.state.current == 2


def test_challenge_innocent_the_challenger_draws_six_and_loses_the_turn():
    """Rule book: "challenged and innocent: the challenger draws 6 (the 4 plus 2) and loses
    their turn." Seat 0's green 3 matches the red 3 by number only, and its wild is another
    wild: neither counts."""
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3", SIX)
    t.act(0, "play", card="wild-draw4", color="green")
    events = t.act(1, "challenge")

    challenged = the(events, "challenged")
    assert challenged["data"]["guilty"] is False
    assert challenged["data"]["hand"] == INNOCENT[1:]
    assert drawn(events, 1, reason="challenge") == SIX
    assert t.hand(1) == [*VICTIM, *SIX]
    assert t.hand(0) == INNOCENT[1:]
    assert t.state.color == "green"
    assert t.state.current == 2
    assert t.state.pending is None


def test_the_challenger_alone_is_shown_the_challenged_hand():
    """Rule book: "the challenger is shown the challenged player's hand (an event visible to the
    challenger alone)". A third seat and a spectator see that a challenge happened, not the
    hand."""
    t = Scenario([GUILTY, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="blue")
    challenged = the(t.act(1, "challenge"), "challenged")

    assert event_view(challenged, 1, revealed=False)["data"]["hand"] == GUILTY[1:]
    for other in (2, None):
        seen = event_view(challenged, other, revealed=False)
        assert "hand" not in seen["data"]
        assert seen["data"]["guilty"] is True
        assert seen["data"]["target"] == 0
    # the bluffer's four cards are a count to everyone else
    bluff_draw = next(e for e in t.log if e["type"] == "cards_drawn" and e["seat"] == 0)
    seen = event_view(bluff_draw, 2, revealed=False)
    assert "cards" not in seen["data"]
    assert seen["data"]["count"] == 4


def test_only_the_victim_may_challenge():
    """Rule book: "Only the player who received the draw four may challenge": not a third seat,
    not the player who played it."""
    t = Scenario([GUILTY, VICTIM, IDLE_2], "red-3", FOUR)
    t.act(0, "play", card="wild-draw4", color="blue")
    error = t.refused(2, "challenge")
    assert error.code == "not_your_turn"
    assert t.refused(0, "challenge").code == "not_your_turn"
    assert t.refused(2, "accept").code == "not_your_turn"


def test_challenge_with_nothing_to_challenge_is_refused():
    """A challenge answers a wild-draw4 played on you; with none, nothing_to_challenge (422)."""
    t = Scenario([GUILTY, VICTIM, IDLE_2], "red-3", ["blue-9"])
    error = t.refused(0, "challenge")
    assert error.code == "nothing_to_challenge"
    assert t.refused(0, "accept").code == "nothing_to_challenge"
    t.act(0, "play", card="red-8")
    assert t.refused(1, "challenge").code == "nothing_to_challenge"
    assert types(t.log)[-2:] == ["card_played", "turn_changed"]


def test_a_challenge_judges_the_hand_the_wild_draw4_was_played_from():
    """Rule book: "challenged and guilty (held a card of the current colour)": the hand the
    wild-draw4 was played from. Seat 0 plays its wild-draw4 from a hand with no red (the blue 7
    is left) and says no UNO; seat 2 catches it and it draws two reds. Seat 1 challenges: seat 0
    was innocent when it played, and the challenger draws 6 (before, the caught reds made it
    guilty). The challenger is shown the hand as it is now."""
    caught = ["red-8", "red-9"]
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3", [*caught, *SIX])
    under = [c for c in INNOCENT if c not in ("wild-draw4", "blue-7")]
    t.set_table(
        hands=(("wild-draw4", "blue-7"), *t.state.hands[1:]),
        discard_pile=(*under, "red-3"),
    )
    t.act(0, "play", card="wild-draw4", color="green")
    assert t.state.catchable == {0}
    t.act(2, "catch", target=0)
    assert t.hand(0) == ["blue-7", *caught]

    events = t.act(1, "challenge")
    challenged = the(events, "challenged")["data"]
    assert challenged["guilty"] is False
    assert challenged["hand"] == ["blue-7", *caught]
    assert drawn(events, 1, reason="challenge") == SIX
    assert t.hand(0) == ["blue-7", *caught]
    assert t.state.color == "green"
    assert (t.state.current, t.state.pending) == (2, None)


def test_a_challenge_leaves_out_every_card_of_a_catch_split_by_a_reshuffle():
    """As above, the catch drawing its two cards on either side of a reshuffle: given a draw
    pile of one red 8 and only reds under the red 3, seat 0 is caught and draws the red 8, the
    pile is refilled, and it draws a second red. Neither counts against it (before, the cards
    drawn before the reshuffle did)."""
    t = Scenario([INNOCENT, VICTIM, IDLE_2], "red-3")
    seat_0 = ("wild-draw4", "blue-7")
    under = ("red-1", "red-1", "red-2", "red-2", "red-4", "red-4", "red-5", "red-5", "red-7")
    left = Counter(chain(t.state.draw_pile, t.state.discard_pile, INNOCENT, IDLE_2))
    left.subtract([*seat_0, *under, "red-3", "red-8"])
    t.set_table(
        hands=(seat_0, tuple(VICTIM), tuple(left.elements())),
        draw_pile=("red-8",),
        discard_pile=(*under, "red-3"),
    )
    t.act(0, "play", card="wild-draw4", color="green")
    events = t.act(2, "catch", target=0)
    assert types(events) == ["uno_caught", "cards_drawn", "pile_reshuffled", "cards_drawn"]
    assert t.hand(0)[:2] == ["blue-7", "red-8"] and t.hand(0)[2] in under

    events = t.act(1, "challenge")
    assert the(events, "challenged")["data"]["guilty"] is False
    assert len(drawn(events, 1, reason="challenge")) == 6
    assert len(t.hand(0)) == 3
    assert (t.state.color, t.state.current) == ("green", 2)
