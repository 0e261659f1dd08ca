"""Time with a real worker on the real Redis broker: deadlines fire by themselves, once."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games.models import Event, Game
from service import play
from service.tasks import sweep_overdue_games, time_out_game
from tests.support.timeouts import make_overdue, start_game, started_game

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 30.0  # seconds: a bound for a machine under load, not an expected duration


def wait_for(condition: Any, timeout: float = WAIT) -> None:
    """Await a condition another thread (the worker) makes true."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("the worker did not act in time")
        time.sleep(0.05)


def timeouts_of(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game, type="timed_out").order_by("seq"))


def test_an_idle_player_times_out_by_itself(players: Any, worker: Any) -> None:
    """A game with a 1-second timeout: the worker draws for the idle seat and the log shows it."""
    # The seat to act as the start committed it: by a read after it (a slow machine) the second
    # may have run out and the worker moved on to the next seat.
    game = start_game(players[:2], turn_timeout=1)
    idle_seat = game.current_seat

    wait_for(lambda: bool(timeouts_of(game)))

    game.refresh_from_db()
    first = timeouts_of(game)[0]
    assert first.seat == idle_seat
    following = Event.objects.get(game=game, seq=first.seq + 1)
    assert following.type == "cards_drawn"
    assert following.data["auto"] is True and following.data["reason"] == "draw"
    assert game.current_seat != idle_seat or len(timeouts_of(game)) > 1


def test_a_task_delivered_twice_acts_once(players: Any, worker: Any) -> None:
    game = started_game(players[:2], turn_timeout=3600)
    make_overdue(game)

    first = time_out_game.delay(str(game.pk), game.version)
    second = time_out_game.delay(str(game.pk), game.version)

    assert sorted([first.get(timeout=WAIT), second.get(timeout=WAIT)]) == [False, True]
    assert len(timeouts_of(game)) == 1


def test_a_stale_task_does_nothing(players: Any, worker: Any) -> None:
    game = started_game(players[:2], turn_timeout=3600)
    make_overdue(game)
    assert time_out_game.delay(str(game.pk), game.version - 1).get(timeout=WAIT) is False
    assert timeouts_of(game) == []


def test_the_sweep_catches_up_after_the_worker_was_down(players: Any, broker: Any) -> None:
    """Deadlines pass while no worker runs; a worker started again catches up by the sweep."""
    games = [started_game(players[:2], turn_timeout=3600) for _ in range(3)]
    for game in games:
        make_overdue(game)
    games.append(started_game(players[2:4], turn_timeout=3600))  # not overdue

    from celery.contrib.testing.worker import start_worker

    with start_worker(broker, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        applied = sweep_overdue_games.delay(batch_size=2).get(timeout=WAIT)

    assert applied == 3
    assert [len(timeouts_of(g)) for g in games] == [1, 1, 1, 0]
    assert "sweep-overdue-games" in settings.CELERY_BEAT_SCHEDULE


def test_an_action_racing_the_deadline_has_one_outcome(players: Any, worker: Any) -> None:
    """The player acts just as the deadline task fires: the timeout or the action, never both."""
    for _ in range(5):
        game = started_game(players[:2], turn_timeout=3600)
        seat = game.current_seat
        version = game.version
        make_overdue(game, by=timedelta(0))
        barrier = threading.Barrier(2)
        outcome: dict[str, Any] = {}

        def act(
            game: Game = game,
            seat: int | None = seat,
            barrier: threading.Barrier = barrier,
            outcome: dict[str, Any] = outcome,
        ) -> None:
            barrier.wait()
            try:
                play.game_act(player=players[seat or 0], game_id=game.pk, action={"action": "draw"})
                outcome["action"] = "applied"
            except Exception as error:
                outcome["action"] = getattr(error, "code", repr(error))
            finally:
                connection.close()

        thread = threading.Thread(target=act)
        thread.start()
        task = time_out_game.delay(str(game.pk), version)
        barrier.wait()
        thread.join()
        task.get(timeout=WAIT)

        log = list(Event.objects.filter(game=game, seq__gt=version).order_by("seq"))
        assert [e.seq for e in log] == list(range(version + 1, version + 1 + len(log)))
        own_draws = [
            e for e in log if e.type == "cards_drawn" and e.seat == seat and not e.data.get("auto")
        ]
        timed_out = [e for e in log if e.type == "timed_out" and e.seat == seat]
        assert len(timed_out) + len(own_draws) == 1, (outcome, [e.type for e in log])
        assert (outcome["action"] == "applied") == bool(own_draws)
