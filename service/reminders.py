"""Writing ``deadline_soon``: a seat's reminder when 80% of its turn's time has passed (the game's
``remind_at``, set with its deadline by ``games.timekeeping``: banks and vacations included).

Scheduled like the turn deadline: an ETA task with the game id and version when the reminder
falls within ``UNO_SCHEDULE_HORIZON``, the beat sweep for the rest and for lost tasks, and a lazy
path (a player reading their inbox first gets the reminders they are due). Each goes through the
game's unit of work, which locks the game, so a turn gets one reminder however many paths try.
A reminded turn's ``remind_at`` is cleared (and a finished game has none), so the sweep's read
(``notifications.reminders.due_games``, by the ``remind_at`` index) grows with the reminders due,
not with the games stored.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Game
from notifications import reminders
from notifications.delivery import REMIND_TASK, send
from notifications.outbox import DeadlineNear
from service.unit_of_work import game_write
from unoservice.celery import app
from unoservice.errors import DomainError

log = logging.getLogger(__name__)


def schedule(game_id: str, version: int, at: datetime) -> None:
    """Queue the reminder task of a turn (see the module's note on the horizon)."""
    if at - timezone.now() > timedelta(seconds=settings.UNO_SCHEDULE_HORIZON):
        return
    if app.conf.task_always_eager:
        return  # no worker: the in-process beat's sweep reminds (unoservice.local_beat)
    send(REMIND_TASK, [game_id, version], eta=at)


def remind(game_id: str | uuid.UUID, version: int | None = None) -> bool:
    """Remind the seat that must act in ``game_id`` (at ``version``, when given) if 80% of its
    turn's time has passed and it was not reminded yet; True if a reminder was written."""
    if version is not None and not Game.objects.filter(pk=game_id, version=version).exists():
        return False  # the turn is over (most tasks of quick games): no lock taken
    try:
        with game_write(game_id, catch_up=False) as write:
            game = write.game
            if version is not None and game.version != version:
                return False
            if not reminders.is_due(game, timezone.now()) or reminders.reminded(game):
                return False
            assert game.current_seat is not None and game.turn_deadline is not None
            write.record(DeadlineNear(game.current_seat, game.turn_deadline))
    except DomainError as refusal:
        if refusal.code == "not_found":  # the game is gone: nothing to remind of
            return False
        raise
    _forget_reminded_turn(game)
    return True


def _forget_reminded_turn(game: Game) -> None:
    """Once the turn's reminder row is written (the outbox leaves it out while the player
    watches a live game), the turn's ``remind_at`` is cleared, at that version only: the sweep's
    read (by the ``game_reminder_due`` index) finds it no more, so it reads only the turns still
    due a reminder, however many wait in their last 20%."""
    if reminders.reminded(game):
        Game.objects.filter(pk=game.pk, version=game.version).update(remind_at=None)


def remind_due(limit: int = 500) -> int:
    """The sweep: every reminder due and not written (a lost or never-scheduled task)."""
    return sum(remind(pk, version) for pk, version in reminders.due_games()[:limit])


def remind_player(player_id: int) -> int:
    """The lazy path: the reminders ``player_id`` is due in the games where they must act."""
    return sum(remind(pk, version) for pk, version in reminders.due_for(player_id))
