"""Which turns are due a ``deadline_soon`` reminder (80% of the turn's time has passed: the game's
``remind_at``, set with its deadline by ``games.timekeeping``, banks and vacations included), and
whether one was written. The reminders themselves are written through the game's unit of work by
the application layer (``service.reminders``).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from notifications.models import Kind, Notification
from unoservice import prepared


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
    """The games where ``player_id`` must act and is due a reminder not yet written: what
    ``is_due`` and ``reminded`` tell of each, asked of the database at once, prepared (every read
    of the inbox asks it first: through the ORM it cost more Python than the inbox page itself)."""
    connection = connections[DEFAULT_DB_ALIAS]
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rows = prepared.fetch(connection, [(_DUE_FOR, (player_id, now, now))])
    return [(prepared.as_uuid(game_id), version) for game_id, version in rows]


# The literals are the conditions' (the unique reminder's index is partial on its kind).
_DUE_FOR = f"""
    SELECT g.id, g.version FROM {Game._meta.db_table} g
    JOIN {Seat._meta.db_table} s ON s.game_id = g.id AND s.number = g.current_seat
    WHERE s.player_id = %s AND g.status = '{GameStatus.ACTIVE.value}'
      AND g.turn_deadline > %s AND g.remind_at <= %s
      AND NOT EXISTS (
        SELECT 1 FROM {Notification._meta.db_table} n
        WHERE n.kind = '{Kind.DEADLINE_SOON.value}' AND n.game_id = g.id AND n.version = g.version
      )
"""
