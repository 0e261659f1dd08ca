"""Celery tasks: they take ids, call services, and are safe to run twice.

A turn's deadline task carries the game id and the version it was scheduled for; when the game has
moved on it does nothing. The beat sweep finds games whose deadline passed without a task (a worker
or the broker was down) and times them out, a game per transaction, in batches.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import services
from games.models import Game, GameStatus

log = logging.getLogger(__name__)


@shared_task(name="games.time_out_game", ignore_result=False)
def time_out_game(game_id: str, version: int) -> bool:
    """Time out the seat that must act in ``game_id`` if it is still at ``version``, overdue."""
    return services.game_time_out(game_id=game_id, version=version)


@shared_task(name="games.sweep_overdue_games", ignore_result=False)
def sweep_overdue_games(batch_size: int | None = None, max_batches: int = 100) -> int:
    """Time out every game whose deadline has passed; return how many timeouts were applied."""
    size = batch_size or settings.UNO_SWEEP_BATCH_SIZE
    applied = 0
    for _ in range(max_batches):
        ids = services.overdue_game_ids(size)
        if not ids:
            break
        progress = 0
        for game_id in ids:
            if services.game_time_out(game_id=game_id):
                progress += 1
        applied += progress
        if progress == 0:
            break
    if applied:
        log.info("sweep applied %d timeout(s)", applied)
    return applied


def schedule_deadline(game: Game) -> None:
    """After a write commits: queue the task for the game's turn deadline.

    Deadlines further off than ``UNO_SCHEDULE_HORIZON`` seconds are left to the beat sweep: an
    ETA task of a correspondence game would sit in a worker for days, and Redis would deliver it
    again after its visibility timeout. A broker that does not answer costs nothing but a log line:
    the sweep and the lazy path on reads catch up.
    """
    deadline = game.turn_deadline
    if game.status != GameStatus.ACTIVE or deadline is None:
        return
    # The cheap check first: it ends here for most games (reading Celery's conf is slower).
    if deadline - timezone.now() > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    if time_out_game.app.conf.task_always_eager:
        return  # no worker: the lazy path on reads and writes acts for late players
    try:
        time_out_game.apply_async(
            args=[str(game.pk), game.version],
            eta=deadline,
            retry=False,
        )
    except Exception:  # the broker is down: the sweep and the lazy path cover it
        log.warning("could not schedule the deadline of game %s", game.pk, exc_info=True)
