"""A whole match (several rounds) played through HTTP by three bots, to the end of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games import engine
from games.engine.bots import choose
from games.engine.snapshot import state_to_data
from games.models import Game, Hand, Seat
from tests.support.players import Player
from tests.support.table import db_log, db_state, start_table

pytestmark = pytest.mark.django_db


def test_three_players_play_a_match_to_the_end(players: list[Player]) -> None:
    rng = random.Random(3)
    table = start_table(players[:3], target_score=150, seed=2024)
    moves = rounds_seen = 0
    view = table.view(0)
    while view["status"] == "active":
        assert moves < 2000, "the match does not end"
        pending = view["round"]["pending"]
        actor = pending["seat"] if pending else view["round"]["current_seat"]
        view = table.view(actor)
        action = choose(rng, view, prefer_play=0.95)
        view = table.act(actor, **action)
        assert view["you"]["seat"] == actor
        moves += 1
        # Anyone else may catch a seat that holds one card and did not say UNO.
        catchable = [s["seat"] for s in view["seats"] if s["catchable"]]
        if catchable and rng.random() < 0.7:
            target = catchable[0]
            catcher = rng.choice([s for s in range(3) if s != target])
            view = table.act(catcher, "catch", target=target)
            assert view["seats"][target]["hand_count"] == 1 + 2
        if view["last_round"] is not None:
            rounds_seen = max(rounds_seen, view["last_round"]["number"])

    assert view["status"] == "finished"
    game = Game.objects.get(pk=table.id)
    assert game.status == "finished" and game.winner_seat is not None
    assert game.current_seat is None and game.turn_deadline is None
    state = db_state(table.id)
    assert max(state.scores) >= 150
    assert state.scores[game.winner_seat] == max(state.scores)
    assert engine.replay(db_log(table.id)) == state

    # Every seat (and the lists of the others) sees the same revealed table.
    finals = [table.view(seat) for seat in range(3)]
    for seat, final in enumerate(finals):
        assert final["status"] == "finished"
        assert final["winner_seat"] == game.winner_seat
        assert final["round"] is not None
        assert final["you"]["seat"] == seat and final["you"]["legal_actions"] == []
        assert [s["hand"] for s in final["seats"]] == [list(h) for h in state.hands]
        assert final["revealed"] == {"draw_pile": list(state.draw_pile), "seed": 2024}
        assert [s["score"] for s in final["seats"]] == list(state.scores)
        assert final["last_round"]["winner_seat"] is not None
    # The projections agree with the log.
    assert Game.objects.get(pk=table.id).state == state_to_data(state)
    assert {h.seat: Counter(h.cards) for h in Hand.objects.filter(game_id=table.id)} == {
        s: Counter(h) for s, h in enumerate(state.hands)
    }
    assert [(s.number, s.score) for s in Seat.objects.filter(game_id=table.id)] == list(
        enumerate(state.scores)
    )
    assert rounds_seen >= 2 and moves > 10  # a match of several rounds
