"""What each seat may see (API, "The game view"): ``view``, ``legal_actions`` and ``event_view``.

"`you` is null for a caller without a seat. `hand` holds the caller's own cards only; other hands
appear only as `hand_count`. Once a game is finished its replay and event log show every card."
"""

from __future__ import annotations

import json

from games.engine import COLORS, event_view, legal_actions, view
from tests.support.scenario import IDLE_1, IDLE_2, Scenario, red_run, red_run_to, the

SEAT_0 = ["red-8", "green-3", "blue-7", "red-skip", "yellow-6", "wild", "blue-draw2"]


def three_seats(draws=()) -> Scenario:
    return Scenario([SEAT_0, IDLE_1, IDLE_2], "red-3", list(draws))


def test_a_seat_sees_its_own_hand_and_the_others_counts():
    t = three_seats(["green-9", "yellow-4"])
    t.act(0, "play", card="red-8")
    seen = view(t.state, 1)
    assert seen["you"]["seat"] == 1
    assert seen["you"]["hand"] == IDLE_1
    assert [s["hand_count"] for s in seen["seats"]] == [6, 7, 7]
    assert all("hand" not in s for s in seen["seats"])
    assert seen["round"]["top_card"] == "red-8"
    assert seen["round"]["color"] == "red"
    assert seen["round"]["current_seat"] == 1
    assert seen["round"]["draw_pile"] == len(t.state.draw_pile)  # a count, not the cards
    assert seen["round"]["discard_pile"] == 2
    # cards only seat 0 or seat 2 hold appear nowhere in seat 1's view
    text = json.dumps(seen)
    for secret in ("green-3", "yellow-6", "yellow-skip", "yellow-draw2"):
        assert secret not in text


def test_a_spectator_sees_no_hand():
    t = three_seats()
    seen = view(t.state, None)
    assert seen["you"] is None
    assert [s["hand_count"] for s in seen["seats"]] == [7, 7, 7]
    text = json.dumps(seen)
    for secret in ("green-3", "blue-reverse", "yellow-skip"):
        assert secret not in text
    assert legal_actions(t.state, None) == []


def test_a_finished_game_reveals_every_hand():
    """API: "Once a game is finished its replay and event log show every card." """
    t = Scenario([SEAT_0, IDLE_1], "red-3")
    t.resign(1)
    assert t.state.status == "finished"
    seen = view(t.state, None)
    assert seen["winner_seat"] == 0
    assert seen["seats"][0]["hand"] == SEAT_0
    assert seen["seats"][1]["hand"] == []
    assert seen["revealed"]["draw_pile"] == list(t.state.draw_pile)
    dealt = the(t.log, "round_started")
    assert event_view(dealt, None, revealed=True) == dealt  # the deck order, too


def test_legal_actions_list_a_wild_once_per_colour_and_each_is_accepted():
    """API: "legal_actions lists every action the server would accept from the caller right now
    ... each one complete (a wild once per colour ...)"."""
    t = three_seats()
    actions = legal_actions(t.state, 0)
    wilds = [a for a in actions if a.get("card") == "wild"]
    assert wilds == [{"action": "play", "card": "wild", "color": c} for c in COLORS]
    plays = sorted(a["card"] for a in actions if a["action"] == "play" and a["card"] != "wild")
    assert plays == ["green-3", "red-8", "red-skip"]  # colour, number, colour
    assert {"action": "draw"} in actions
    assert legal_actions(t.state, 1) == []  # not seat 1's turn
    assert view(t.state, 0)["you"]["legal_actions"] == actions
    for action in actions:
        fresh = three_seats()
        fresh.act(0, **action)


def test_legal_actions_offer_uno_and_catch():
    """The `uno` flag on the play of the second-to-last card, and a catch once per catchable
    seat."""
    t = red_run(rounds=5)
    red_run_to(t, 2)
    assert {"action": "play", "card": "red-6", "uno": True} in legal_actions(t.state, 0)
    t.act(0, "play", card="red-6")
    assert {"action": "uno"} in legal_actions(t.state, 0)
    assert {"action": "catch", "target": 0} in legal_actions(t.state, 2)
    assert {"action": "catch", "target": 0} not in legal_actions(t.state, 0)


def test_event_view_hides_drawn_cards_and_the_deck():
    """API: "What a viewer may not see is left out of `data` (a card drawn by someone else shows
    as a count)." Seat 0 draws a green 9; the deal shows each seat its own hand only."""
    t = three_seats(["green-9"])
    draw = the(t.act(0, "draw"), "cards_drawn")
    assert event_view(draw, 0, revealed=False)["data"]["cards"] == ["green-9"]
    for other in (1, None):
        seen = event_view(draw, other, revealed=False)["data"]
        assert "cards" not in seen
        assert seen["count"] == 1

    dealt = the(t.log, "round_started")
    for seat, hand in enumerate([SEAT_0, IDLE_1, IDLE_2]):
        seen = event_view(dealt, seat, revealed=False)["data"]
        assert "deck" not in seen
        assert seen["hand"] == hand
    assert "hand" not in event_view(dealt, None, revealed=False)["data"]
