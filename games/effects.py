"""What follows a write, declared by the write (``games.unit_of_work``).

``after_write`` is the one place a write's effects are declared. It runs inside the write's
transaction; each effect runs on commit, with the values of the game as the write left it, and
never for a write that was rolled back: the turn deadline's task, the turn's reminder
(``deadline_soon``), the wake-up of this process's long polls and the delivery of notifications.
The notifications themselves are rows written before the commit, in the write's transaction
(a transactional outbox): those of appended events travel in the events' own message
(``written_with``), those of the write's other facts (a seat taken, a reminder) are written by
``after_write`` before it returns.

The open streams' notice (``streams.hub``: a game id and a seq, never an event) is declared
here too. On PostgreSQL it travels inside the write: the game row's update in the write's one
message fires a ``NOTIFY`` (a trigger, ``streams/migrations/0003``), so it costs no round trip,
and PostgreSQL delivers it to every server process on commit only, never for a rollback. Other
databases (SQLite: one process) tell this process's streams on commit, below.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import bots, engine, longpoll
from games.models import Game, GameStatus
from notifications import delivery, outbox, reminders
from streams.hub import publish_committed
from unoservice.celery import app

log = logging.getLogger(__name__)

TIME_OUT_TASK = "games.time_out_game"
BOT_TURN_TASK = "games.bot_turn"
BOT_FILL_TASK = "games.fill_with_bots"
_draining = threading.local()


@dataclass(frozen=True)
class Deadline:
    """A turn's deadline: the game stood at ``version`` when it was set."""

    game_id: str
    version: int
    at: datetime


def written_with(game: Game, before: outbox.Turn, now: datetime) -> outbox.Batch:
    """The rows written in the same message as a write's events (``game`` holds the summary they
    led to, ``before`` the one before them): their notifications."""
    return outbox.statements_with(game, before, now)


def after_write(
    game: Game,
    appended: Sequence[engine.Event],
    facts: Sequence[outbox.Fact] = (),
    outboxed: int = 0,
    *,
    bots_due: datetime | None = None,
    reclocked: bool = False,
) -> None:
    """Declare the effects of a write that appended ``appended`` (nothing when it appended none),
    recorded ``facts`` and wrote ``outboxed`` notifications with its events that wait for the
    drain (to be delivered to webhooks or browsers); ``reclocked`` when it moved the deadline
    without an event (a vacation). Runs inside the write's transaction, before the commit."""
    if facts:
        outboxed += outbox.write_facts(game, facts, timezone.now())
    if outboxed:
        transaction.on_commit(delivery.queue_drain)
    if bots_due is not None:
        transaction.on_commit(partial(schedule_bot_fill, str(game.pk), bots_due))
    if appended or reclocked:
        _schedule_turn(game)
    if not appended:
        return
    transaction.on_commit(longpoll.notify)
    if connection.vendor != "postgresql":  # PostgreSQL: the trigger's NOTIFY, on commit
        transaction.on_commit(partial(publish_committed, str(game.pk), game.version))
    if bots.seat_to_play(game) is not None:
        transaction.on_commit(partial(schedule_bot_turn, str(game.pk), game.version))


def _schedule_turn(game: Game) -> None:
    """The deadline's task and the reminder's of the turn as the write left it."""
    if game.status != GameStatus.ACTIVE or game.turn_deadline is None:
        return
    deadline = Deadline(str(game.pk), game.version, game.turn_deadline)
    transaction.on_commit(partial(schedule_deadline, deadline))
    if game.remind_at is not None:
        reminder = partial(reminders.schedule, deadline.game_id, game.version, game.remind_at)
        transaction.on_commit(reminder)


def schedule_deadline(deadline: Deadline) -> None:
    """Queue the task for a turn's deadline.

    Deadlines further off than ``UNO_SCHEDULE_HORIZON`` seconds are left to the beat sweep: an
    ETA task of a correspondence game would sit in a worker for days, and Redis would deliver it
    again after its visibility timeout. A broker that does not answer costs nothing but a log line:
    the sweep and the lazy path on reads catch up.
    """
    # The cheap check first: it ends here for most games (reading Celery's conf is slower).
    if deadline.at - timezone.now() > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    if app.conf.task_always_eager:
        return  # no worker: the lazy path on reads and writes acts for late players
    try:
        app.send_task(
            TIME_OUT_TASK, args=[deadline.game_id, deadline.version], eta=deadline.at, retry=False
        )
    except Exception:  # the broker is down: the sweep and the lazy path cover it
        log.warning("could not schedule the deadline of game %s", deadline.game_id, exc_info=True)


def schedule_bot_turn(game_id: str, version: int) -> None:
    """Queue the turn of the bot that must act in ``game_id`` at ``version``, ``UNO_BOT_DELAY``
    seconds on. Without a broker it plays at once, in this process: bot turns that follow from
    it queue behind it rather than nest (a game of bots would otherwise recurse to its end).
    A broker that does not answer costs a log line: the sweep plays the turn after its grace."""
    if not app.conf.task_always_eager:
        try:
            app.send_task(
                BOT_TURN_TASK,
                args=[game_id, version],
                countdown=settings.UNO_BOT_DELAY,
                retry=False,
            )
        except Exception:
            log.warning("could not schedule a bot turn of game %s", game_id, exc_info=True)
        return
    queue: list[tuple[str, int]] | None = getattr(_draining, "queue", None)
    if queue is not None:
        queue.append((game_id, version))
        return
    from games.play import game_bot_turn  # the write path imports this module

    _draining.queue = queue = [(game_id, version)]
    try:
        while queue:
            next_id, next_version = queue.pop(0)
            try:
                game_bot_turn(game_id=next_id, version=next_version)
            except Exception:  # the player's request that led here must not fail for it
                log.exception("the bot turn of game %s failed", next_id)
    finally:
        _draining.queue = None


def schedule_bot_fill(game_id: str, at: datetime) -> None:
    """Queue the task that fills a quick match's free seats with bots at ``at``. As for a
    deadline, a time beyond ``UNO_SCHEDULE_HORIZON`` is left to the beat sweep, and without a
    broker (or with one that does not answer) the sweep and reads after ``at`` fill the game
    (``clock.caught_up``)."""
    if at - timezone.now() > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    if app.conf.task_always_eager:
        return
    try:
        app.send_task(BOT_FILL_TASK, args=[game_id], eta=at, retry=False)
    except Exception:
        log.warning("could not schedule the bots of game %s", game_id, exc_info=True)
