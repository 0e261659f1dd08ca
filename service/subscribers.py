"""The reactions to a committed write: one explicit list, ``SUBSCRIBERS``, each a function of the
write's facts (``service.facts.WriteFacts``), run after the commit in that order.

What the write itself stores stays in its transaction (``service.unit_of_work``): the events, the
projections and the notification rows (a transactional outbox: those of events in the events' own
message, those of recorded facts, such as a seat taken, just before the commit). What follows is
here: the notifications' delivery, a quick match's bots, the deadline's task and the reminder's,
this process's long polls, the streams' notice without PostgreSQL, and the bots' moves.

The open streams' notice (``streams.hub``: a game id and a seq, never an event) travels inside the
write on PostgreSQL: the game row's update in the write's one message fires a ``NOTIFY`` (a
trigger, ``streams/migrations/0003``), so it costs no round trip, and PostgreSQL delivers it to
every server process on commit only. Other databases (SQLite: one process) tell this process's
streams from ``notify_streams``.

To add a reaction: write a function of ``WriteFacts`` (it runs after the commit; a write of its
own goes through ``game_write``) and put it in ``SUBSCRIBERS``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import GameStatus
from notifications import delivery
from service import bots, longpoll, reminders
from service.facts import Subscriber, WriteFacts
from service.play import game_bot_turn
from service.tournament_steps import advance_tournaments
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


def deliver_outbox(facts: WriteFacts) -> None:
    """The notifications written with the write go out (webhooks, Web Push) by the drain."""
    if facts.outboxed:
        delivery.queue_drain()


def fill_with_bots(facts: WriteFacts) -> None:
    """A quick match whose players asked for bots gets its task for that time."""
    if facts.bots_due is not None:
        schedule_bot_fill(str(facts.game.pk), facts.bots_due)


def queue_deadline(facts: WriteFacts) -> None:
    """The task of the turn's deadline, as the write left it."""
    game = facts.game
    if facts.deadline_moved and game.status == GameStatus.ACTIVE and game.turn_deadline is not None:
        schedule_deadline(Deadline(str(game.pk), game.version, game.turn_deadline))


def queue_reminder(facts: WriteFacts) -> None:
    """The task of the turn's ``deadline_soon`` reminder, as the write left it."""
    game = facts.game
    if (
        facts.deadline_moved
        and game.status == GameStatus.ACTIVE
        and game.turn_deadline is not None
        and game.remind_at is not None
    ):
        reminders.schedule(str(game.pk), game.version, game.remind_at)


def wake_long_polls(facts: WriteFacts) -> None:
    """This process's long polls of the event log look again."""
    if facts.appended:
        longpoll.notify()


def notify_streams(facts: WriteFacts) -> None:
    """Without PostgreSQL, this process's open streams are told of the new events, or of a
    waiting game abandoned, which ends them (on PostgreSQL the game row's trigger did it: a
    ``NOTIFY`` delivered on commit)."""
    abandoned = facts.game.status == GameStatus.ABANDONED
    if (facts.appended or abandoned) and connection.vendor != "postgresql":
        publish_committed(str(facts.game.pk), facts.game.version)


def play_bots(facts: WriteFacts) -> None:
    """A bot that must or may act now (its turn, a seat taken over, UNO or a catch off its
    turn) gets its move queued."""
    if facts.appended and bots.may_act(facts.game, facts.state):
        schedule_bot_turn(str(facts.game.pk), facts.game.version)


# The reactions to every write, in the order they run after its commit.
SUBSCRIBERS: tuple[Subscriber, ...] = (
    deliver_outbox,
    fill_with_bots,
    queue_deadline,
    queue_reminder,
    wake_long_polls,
    notify_streams,
    play_bots,
    advance_tournaments,
)


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
        return  # no worker: the in-process beat's sweep (local_beat) and reads act for them
    try:
        app.send_task(
            TIME_OUT_TASK, args=[deadline.game_id, deadline.version], eta=deadline.at, retry=False
        )
    except Exception:  # the broker is down: the sweep and the lazy path cover it
        log.warning("could not schedule the deadline of game %s", deadline.game_id, exc_info=True)


def schedule_bot_turn(game_id: str, version: int) -> None:
    """Queue the move of a bot that must or may act in ``game_id`` at ``version``, ``UNO_BOT_DELAY``
    seconds on. A broker that does not answer costs a log line: the sweep plays the turn after
    its grace.

    Without a broker (``make run``) this process plays it: after the delay, on a timer thread of
    its own, as a worker would, so the request that led to it answers at once (a game left to
    bots, its person resigned or out, played itself to its end inside that request before:
    minutes of it). With no delay (the tests) it plays at once, in this thread: bot turns that
    follow from it queue behind it rather than nest (a game of bots would otherwise recurse to
    its end)."""
    delay = settings.UNO_BOT_DELAY
    if not app.conf.task_always_eager:
        try:
            app.send_task(BOT_TURN_TASK, args=[game_id, version], countdown=delay, retry=False)
        except Exception:
            log.warning("could not schedule a bot turn of game %s", game_id, exc_info=True)
        return
    if delay > 0:
        timer = threading.Timer(delay, _play_bot_turn_here, args=(game_id, version))
        timer.daemon = True  # a stopping server does not wait for the bots' next moves
        timer.start()
        return
    queue: list[tuple[str, int]] | None = getattr(_draining, "queue", None)
    if queue is not None:
        queue.append((game_id, version))
        return
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


def _play_bot_turn_here(game_id: str, version: int) -> None:
    """A bot turn on this process's own timer thread (no broker); its database connection is
    the thread's, closed when the turn is played."""
    try:
        game_bot_turn(game_id=game_id, version=version)
    except Exception:
        log.exception("the bot turn of game %s failed", game_id)
    finally:
        connection.close()


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
