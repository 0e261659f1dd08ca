"""Celery tasks: they take ids, call services, and are safe to run twice.

A turn's deadline task carries the game id and the version it was scheduled for; when the game has
moved on it does nothing. The beat sweep finds games whose deadline passed without a task (a worker
or the broker was down) and times them out, a game per transaction, in batches.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from celery import shared_task
from django.conf import settings

from games.models import GameStatus
from notifications import delivery
from players import mail
from service import chat, clock, guests, reminders, tables, tournament_steps
from service.subscribers import BOT_FILL_TASK, BOT_TURN_TASK, TIME_OUT_TASK

log = logging.getLogger(__name__)


@shared_task(name=TIME_OUT_TASK, ignore_result=False)
def time_out_game(game_id: str, version: int) -> bool:
    """Time out the seat that must act in ``game_id`` if it is still at ``version``, overdue."""
    return clock.game_time_out(game_id=game_id, version=version)


@shared_task(name=BOT_TURN_TASK, ignore_result=False)
def bot_turn(game_id: str, version: int) -> bool:
    """A bot that must or may act in ``game_id`` moves, if the game is still at ``version``."""
    from service.play import game_bot_turn

    return game_bot_turn(game_id=game_id, version=version)


@shared_task(name=chat.CHAT_ANSWER_TASK, ignore_result=False)
def chat_answer(message_id: int) -> int | None:
    """A bot answers the reaction ``message_id`` (``service.chat``), at most once."""
    return chat.bot_answer(message_id)


@shared_task(name=BOT_FILL_TASK, ignore_result=False)
def fill_with_bots(game_id: str) -> bool:
    """Bots fill the free seats of the quick match ``game_id`` and start it, if its time has
    come and it still waits (a repeated or early task does nothing)."""
    return tables.game_fill_with_bots(game_id=game_id).status != GameStatus.WAITING


@shared_task(name="games.sweep_overdue_games", ignore_result=False)
def sweep_overdue_games(batch_size: int | None = None, max_batches: int = 100) -> int:
    """Time out every game whose deadline has passed; return how many timeouts were applied."""
    size = batch_size or settings.UNO_SWEEP_BATCH_SIZE
    applied = 0
    for _ in range(max_batches):
        ids = clock.overdue_game_ids(size)
        if not ids:
            break
        progress = sum(_each(clock.game_time_out, ids, "timeout"))
        applied += progress
        if progress == 0:
            break
    if applied:
        log.info("sweep applied %d timeout(s)", applied)
    # quick matches whose fill task was lost
    list(_each(tables.game_fill_with_bots, clock.bots_due_game_ids(size), "bots' fill"))
    return applied


def _each(step: Callable[..., Any], game_ids: Iterable[Any], what: str) -> Iterator[bool]:
    """``step(game_id=…)`` for each game, each in its own transaction: one that fails is logged
    and passed by (it was the first of every batch, the earliest deadline, and stopped the
    sweep for every other game)."""
    for game_id in game_ids:
        try:
            yield bool(step(game_id=game_id))
        except Exception:
            log.exception("the %s of game %s failed; the sweep goes on", what, game_id)
            yield False


@shared_task(name=delivery.REMIND_TASK)
def remind(game_id: str, version: int) -> bool:
    return reminders.remind(game_id, version)


@shared_task(name=delivery.SWEEP_TASK)
def sweep() -> dict[str, int]:
    """What the tasks missed (a worker or the broker was down): undispatched notifications,
    due reminders, attempts whose task was lost or lies past the schedule horizon, account mails
    not sent yet."""
    return {
        "reminded": reminders.remind_due(),
        "drained": delivery.drain(),
        "delivered": delivery.deliver_due(),
        "mailed": mail.send_due(),
    }


@shared_task(name="players.remove_stale_guests", ignore_result=False)
def remove_stale_guests() -> int:
    """Guests unclaimed for ``GUEST_DAYS`` are removed with their waiting games."""
    return guests.remove_stale_guests()


@shared_task(name=tournament_steps.ADVANCE_TASK, ignore_result=False)
def advance_tournament(tournament_id: str) -> bool:
    """Take the tournament's due steps (start, results, the next round or tables, the end) under
    its row lock: run twice, or by two workers at once, it takes each step once."""
    return tournament_steps.advance(tournament_id)


@shared_task(name=tournament_steps.SWEEP_TASK, ignore_result=False)
def sweep_tournaments() -> int:
    """Every tournament due to start or running takes its due steps (a lost task)."""
    return tournament_steps.sweep()
