"""Two workers racing to take the same step pair the round once: each locks the tournament's
row (``select_for_update``) and the second finds the step taken. A lost step's task is picked up
by the beat sweep."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Tournament, TournamentTable
from service import tournament_steps
from service.tasks import sweep_tournaments
from tests.support.players import MakePlayer
from tests.support.tournaments import create, join_all, log_of

pytestmark = pytest.mark.django_db(transaction=True)


def due(tournament_id: str) -> None:
    """Its start passed, and no task was queued for it (as if the task was lost)."""
    Tournament.objects.filter(pk=tournament_id).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )


def test_two_workers_racing_pair_the_round_once(make_player: MakePlayer) -> None:
    host, *people = (make_player(f"r{i}") for i in range(9))
    tournament = create(host, table_size=4, rounds=2)
    join_all(tournament["id"], people)
    due(tournament["id"])
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def worker() -> None:
        try:
            barrier.wait()
            answers.append(tournament_steps.advance(tournament["id"]))
        except Exception as error:  # surfaced below
            answers.append(error)
        finally:
            connection.close()  # each thread had its own connection

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers, key=str) == [False, True], answers
    types = [e["type"] for e in log_of(tournament["id"])]
    assert types.count("tournament_started") == 1
    assert types.count("round_paired") == 1
    assert TournamentTable.objects.filter(tournament_id=tournament["id"]).count() == 2
    assert Game.objects.filter(tournament_table__tournament_id=tournament["id"]).count() == 2
    # Once more, by a third: nothing left to do.
    assert tournament_steps.advance(tournament["id"]) is False


def test_the_sweep_takes_a_step_whose_task_was_lost(make_player: MakePlayer) -> None:
    host, *people = (make_player(f"s{i}") for i in range(5))
    tournament = create(host, table_size=2, rounds=1)
    join_all(tournament["id"], people[:4])
    due(tournament["id"])
    assert Tournament.objects.get(pk=tournament["id"]).status == "upcoming"

    assert sweep_tournaments() == 1
    paired = [e for e in log_of(tournament["id"]) if e["type"] == "round_paired"]
    assert len(paired) == 1 and len(paired[0]["data"]["tables"]) == 2
    assert sweep_tournaments() == 0  # nothing due any more


def test_the_sweep_records_a_table_whose_step_was_lost(
    make_player: MakePlayer, broker: Any
) -> None:
    """A table ended while no worker ran (its step's task waits on the broker, unconsumed): the
    sweep records it and pairs the next round."""
    host, *people = (make_player(f"l{i}") for i in range(3))
    tournament = create(host, table_size=2, rounds=2)
    join_all(tournament["id"], people)
    due(tournament["id"])
    assert sweep_tournaments() == 1
    (table,) = TournamentTable.objects.filter(tournament_id=tournament["id"])
    resigner = next(p for p in people if p.id == table.seats[0])
    answer = resigner.client.post(f"/api/v1/games/{table.game_id}/resign/")
    assert answer.status_code == 200, answer.json()
    assert Game.objects.get(pk=table.game_id).status == "finished"
    assert not any(e["type"] == "table_finished" for e in log_of(tournament["id"]))

    assert sweep_tournaments() == 1
    types = [e["type"] for e in log_of(tournament["id"])]
    assert types.count("table_finished") == 1 and types.count("round_paired") == 2
