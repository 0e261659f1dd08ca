"""The services of time: the server plays the turn of a seat whose deadline has passed.

Three paths lead here and count the same way: the deadline's Celery task, the beat sweep for games
whose task was lost, and the lazy path (a game read after its deadline first gets its timeouts),
so a game is right even with no worker at all. Each acts on the deadline the write path set
(``games.timekeeping``: the move clock or the seat's bank, standing still on vacation).
"""

from __future__ import annotations

import uuid

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from service import tables
from service.unit_of_work import game_write, is_overdue


def game_time_out(*, game_id: str | uuid.UUID, version: int | None = None) -> bool:
    """Act for the seat whose turn deadline has passed. False when there is nothing to do.

    With ``version``, only if the game is still at that version: a stale or repeated task finds
    the game moved on and does nothing.
    """
    with game_write(game_id, catch_up=False) as write:
        if version is not None and write.game.version != version:
            return False
        return write.time_out()


def caught_up(game: Game) -> Game:
    """The lazy path: a game read after its deadline first gets its overdue timeouts, and a
    quick match read after its time for bots gets them (``tables``)."""
    if tables.bots_due(game):
        return tables.game_fill_with_bots(game_id=game.pk)
    if not is_overdue(game):
        return game
    with game_write(game.pk) as write:
        return write.game


def overdue_game_ids(limit: int) -> list[uuid.UUID]:
    return list(
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("id", flat=True)[:limit]
    )


def bots_due_game_ids(limit: int) -> list[uuid.UUID]:
    """Quick matches whose time for bots has passed (a task lost, or no worker)."""
    return list(
        Game.objects.filter(status=GameStatus.WAITING, fill_bots_at__lte=timezone.now())
        .order_by("fill_bots_at")
        .values_list("id", flat=True)[:limit]
    )


def reclock_games_of(player_id: int) -> int:
    """After a vacation of ``player_id`` started or ended: every game they sit in reads its
    players' vacations again, and its deadline is set again (their clock stands still while
    away); how many deadlines moved. Each game is locked through its unit of work (its overdue
    timeouts first), in the order of their ids, and a moved deadline's task is scheduled again
    after the commit. Waiting games are locked too: one starting now reads the vacation."""
    seated = Seat.objects.filter(game=OuterRef("pk"), player_id=player_id)
    ids = (
        Game.objects.filter(Exists(seated), status__in=(GameStatus.WAITING, GameStatus.ACTIVE))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    moved = 0
    for game_id in list(ids):
        with game_write(game_id) as write:
            moved += write.reclock()
    return moved
