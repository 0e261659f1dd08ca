"""Many threads at one game at once, and the check that its log and projections stayed whole."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from games import engine
from games.engine.snapshot import state_to_data
from games.models import Event, Game, Hand, Seat
from tests.support.table import db_log

THREADS = 8


def run_threads(count: int, work: Callable[[int, threading.Barrier], Any]) -> list[Any]:
    """Run ``work(i, barrier)`` in ``count`` threads at once; re-raise the first failure."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    failures: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = work(i, barrier)
        except BaseException as exc:
            failures.append(exc)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive(), "a thread hangs"
    if failures:
        raise failures[0]
    return results


def assert_consistent(game_id: str) -> engine.GameState:
    """Seqs 1..version without gaps; the projections equal the replay of the log."""
    game = Game.objects.get(pk=game_id)
    seqs = list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    state = engine.replay(db_log(game_id))
    assert game.state == state_to_data(state)
    assert game.current_seat == (None if state.status == "finished" else state.actor)
    hands = {h.seat: list(h.cards) for h in Hand.objects.filter(game_id=game_id)}
    assert hands == {seat: list(hand) for seat, hand in enumerate(state.hands)}
    seats = Seat.objects.filter(game_id=game_id).order_by("number")
    assert [(s.status, s.score) for s in seats] == list(
        zip(state.statuses, state.scores, strict=True)
    )
    return state
