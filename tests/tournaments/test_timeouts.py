"""A tournament table whose players stop playing finishes by their clocks, as any game does: each
missed turn is played by the server, the seat that misses ``max_timeouts`` is forfeited, the game
ends, and the tournament records the table and pairs its next round."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, TournamentTable
from games.standings import placing_points
from service.tasks import sweep_overdue_games, sweep_tournaments
from tests.support.players import MakePlayer
from tests.support.table import ok
from tests.support.timeouts import make_overdue
from tests.support.tournaments import create, join_all, log_of, start_now, url

pytestmark = pytest.mark.django_db(transaction=True)


def run_out_the_clock(game_id: str) -> Game:
    """Nobody at the table acts: every turn runs past its deadline until the game ends."""
    for _ in range(50):  # 3 timeouts a seat end a game of two long before this bound
        game = Game.objects.get(pk=game_id)
        if game.status == "finished":
            return game
        make_overdue(game, timedelta(seconds=1))
        assert sweep_overdue_games() >= 1
    raise AssertionError("the table never finished by its clock")


def test_a_table_of_silent_players_finishes_by_forfeits_and_the_next_round_is_paired(
    make_player: MakePlayer,
) -> None:
    host, *people = (make_player(f"t{i}") for i in range(5))
    tournament = create(host, table_size=2, rounds=2)
    join_all(tournament["id"], people[:4])
    start_now(tournament["id"])
    tables = list(TournamentTable.objects.filter(tournament_id=tournament["id"]))
    assert len(tables) == 2

    finished = [run_out_the_clock(str(table.game_id)) for table in tables]
    for game in finished:
        forfeits = [s for s in game.seats.all() if s.status == "forfeited"]
        assert forfeits, "a silent table ends by forfeits"
    sweep_tournaments()  # if a step's task was not already run in-process

    types = [e["type"] for e in log_of(tournament["id"])]
    assert types.count("table_finished") == 2
    assert types.count("round_paired") == 2  # the second round followed the forfeits
    # Each table gave the seat that outlasted the other the points of first place, the other none.
    detail = ok(host.client.get(url(tournament["id"])))
    first_round = sorted(row["points"] for row in detail["standings"])
    assert first_round == sorted(placing_points([0, 1]) * 2)
