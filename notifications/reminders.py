"""Which turns are due a ``deadline_soon`` reminder (80% of the turn's time has passed: the game's
``remind_at``, set with its deadline by ``games.timekeeping``, banks and vacations included), and
whether one was written. The reminders themselves are written through the game's unit of work by
the application layer (``service.reminders``).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.models import Game, GameStatus
from notifications.models import Kind, Notification


def reminded(game: Game) -> bool:
    """The turn of ``game`` at its version has its reminder already."""
    return Notification.objects.filter(
        kind=Kind.DEADLINE_SOON, game_id=game.pk, version=game.version
    ).exists()


def is_due(game: Game, now: datetime) -> bool:
    """The turn's reminder is due: ``Game.remind_at`` (``games.timekeeping``: after 80% of the
    seat's time, its bank's and its vacation's included) has come, the deadline not yet."""
    deadline, due = game.turn_deadline, game.remind_at
    return (
        game.status == GameStatus.ACTIVE
        and game.current_seat is not None
        and deadline is not None
        and due is not None
        and due <= now < deadline
    )


def due_games() -> list[tuple[uuid.UUID, int]]:
    """Every active game whose reminder is due and not written: ``(id, version)``, the nearest
    deadline first."""
    now = timezone.now()
    reminded = Notification.objects.filter(
        kind=Kind.DEADLINE_SOON, game_id=OuterRef("pk"), version=OuterRef("version")
    )
    return list(
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__gt=now, remind_at__lte=now)
        .exclude(Exists(reminded))
        .order_by("turn_deadline")
        .values_list("pk", "version")
    )


def due_for(player_id: int) -> list[tuple[uuid.UUID, int]]:
    """The games where ``player_id`` must act and is due a reminder not yet written."""
    now = timezone.now()
    games = Game.objects.filter(
        status=GameStatus.ACTIVE,
        seats__player_id=player_id,
        current_seat=F("seats__number"),
        turn_deadline__gt=now,
    ).only("pk", "version", "status", "current_seat", "turn_deadline", "remind_at")
    return [(g.pk, g.version) for g in games if is_due(g, now) and not reminded(g)]
