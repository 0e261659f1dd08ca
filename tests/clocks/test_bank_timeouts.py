"""A bank that runs out: the server acts, by the deadline's task on the real worker, by the
beat sweep, or on the next read (the lazy path), and all three count the bank alike."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Event, Game
from service.tasks import sweep_overdue_games, time_out_game
from tests.support.players import client_for
from tests.support.timeouts import pass_time, start_game, started_game

WAIT = 30.0  # seconds: a bound for a machine under load, not an expected duration


def wait_for(condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    end = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() > end:
            raise AssertionError("the worker did not act in time")
        time.sleep(0.05)
    return found


def bank(initial: int, increment: int, most: int) -> tuple[int, int, int]:
    return (initial, increment, most)


def after(game: Game, seq: int) -> list[tuple[str, int | None, dict[str, Any]]]:
    rows = Event.objects.filter(game=game, seq__gt=seq).order_by("seq")
    return [(row.type, row.seat, row.data) for row in rows]


@pytest.mark.django_db(transaction=True)
def test_a_bank_that_runs_out_makes_the_worker_act_and_restarts_it(
    worker: Any, django_user_model: type[User]
) -> None:
    users = [django_user_model.objects.create_user(f"banker{i}") for i in range(2)]
    # The seat and version of the start as it committed: the bank of a second may have run out,
    # and the worker moved, before any read after it (a slow machine), which would then name the
    # next seat and a version past the timeout awaited.
    game = start_game(users, bank=bank(1, 2, 5))
    idle, version = game.current_seat, game.version

    timed_out = wait_for(
        lambda: Event.objects.filter(game=game, type="timed_out", seq__gt=version).first()
    )

    assert timed_out.seat == idle
    restarted = wait_for(
        lambda: Event.objects.filter(
            game=game, type="bank_changed", seat=idle, seq__gt=timed_out.seq
        ).first()
    )
    assert restarted.data == {"bank": 2}  # the increment, after the server's move


def _three_games(users: list[User]) -> list[Game]:
    games = []
    for _ in range(3):
        game = started_game(users, bank=bank(600, 120, 900))
        pass_time(game, 601)  # the bank of the seat to act has run out
        games.append(game)
    return games


def _outcome(game: Game, version: int, deadline: Any) -> tuple[Any, ...]:
    game.refresh_from_db()
    assert game.turn_started_at is not None and game.turn_deadline is not None
    return (
        [
            (kind, seat, data)
            for kind, seat, data in after(game, version)
            if kind != "round_started"
        ],
        game.turn_started_at - deadline,
        game.turn_deadline - game.turn_started_at,
    )


@pytest.mark.django_db(transaction=True)
def test_the_task_the_sweep_and_the_lazy_path_count_the_bank_alike(
    broker: Any, django_user_model: type[User]
) -> None:
    from celery.contrib.testing.worker import start_worker

    users = [django_user_model.objects.create_user(f"counter{i}") for i in range(2)]
    by_task, by_sweep, by_read = _three_games(users)
    marks = {g.pk: (g.version, g.turn_deadline) for g in (by_task, by_sweep, by_read)}

    with start_worker(broker, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        assert time_out_game.delay(str(by_task.pk), by_task.version).get(timeout=WAIT) is True
    # The sweep picks up every overdue game: the read's first, so that it stays the lazy path's.
    client_for(users[0]).get(f"/api/v1/games/{by_read.pk}/")
    assert sweep_overdue_games() >= 1

    outcomes = [_outcome(g, *marks[g.pk]) for g in (by_task, by_sweep, by_read)]
    # The same events and the same allowance; each path acted when it came (started_late).
    assert [o[0] for o in outcomes] == [outcomes[0][0]] * 3
    assert [o[2] for o in outcomes] == [outcomes[0][2]] * 3
    events, _, allowance = outcomes[0]
    kinds = [kind for kind, _, _ in events]
    assert kinds[0] == "timed_out" and "bank_changed" in kinds
    (restart,) = [(seat, data) for kind, seat, data in events if kind == "bank_changed"]
    assert restart == (events[0][1], {"bank": 120})
    # The next seat's clock started when the server acted (not at the deadline that passed:
    # it is told of its turn then), with its whole bank.
    assert all(o[1] > timedelta(0) for o in outcomes)
    assert allowance == timedelta(seconds=600)


@pytest.mark.django_db(transaction=True)
def test_a_vacation_ended_early_queues_the_deadline_it_brought_back(
    worker: Any, django_user_model: type[User]
) -> None:
    """An hour's turn with 8 s left when its player goes away: the deadline moves a day on (no
    task so far ahead); back at once, the worker acts about 8 s later by the task queued then."""
    users = [django_user_model.objects.create_user(f"traveller{i}") for i in range(2)]
    game = started_game(users, turn_timeout=3600)
    idle, version = game.current_seat, game.version
    assert idle is not None
    pass_time(game, 3592)
    away = client_for(users[idle])
    assert away.post("/api/v1/players/me/vacation/", {"days": 1}, format="json").status_code == 201
    game.refresh_from_db()
    assert game.turn_deadline is not None and game.turn_deadline > timezone.now() + timedelta(
        hours=23
    )

    assert away.delete("/api/v1/players/me/vacation/").status_code == 200

    timed_out = wait_for(
        lambda: Event.objects.filter(game=game, type="timed_out", seq__gt=version).first()
    )
    assert timed_out.seat == idle
