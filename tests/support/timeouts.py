"""Games for the time suite: started through services, and made overdue without waiting."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone

from games.models import Game
from players.models import Vacation
from service.lobby import NewGame, game_create, game_join


def start_game(seated: list[User], **settings: Any) -> Game:
    """A game of ``seated`` players (seat order = list order) started through services, as the
    write that started it committed it: its seat to act and version are those the first clock
    ran from, even when a clock of a second has run out and a worker has acted since (a read
    after the start could already see the worker's move)."""
    spec = NewGame(max_players=len(seated), seed=7, **settings)
    game = game_create(player=seated[0], spec=spec)
    for user in seated[1:]:
        game = game_join(player=user, game_id=game.pk)
    assert game.status == "active"
    return game


def started_game(seated: list[User], **settings: Any) -> Game:
    """A started game of ``seated`` players (seat order = list order), created through services
    and read again from the database."""
    game = start_game(seated, **settings)
    game.refresh_from_db()
    assert game.status == "active"
    return game


def make_overdue(game: Game, by: timedelta = timedelta(seconds=1)) -> None:
    """As if the clock had run past the game's deadline (without waiting for it)."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - by)
    game.refresh_from_db()


def pass_time(game: Game, seconds: float, *, players: Sequence[User] = ()) -> None:
    """As if ``seconds`` had passed since the running turn's clock started: its start, deadline
    and reminder move that far back, and so do the vacations of ``players`` (the code reads
    ``timezone.now()``: the test moves what is stored around it rather than the clock)."""
    by = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=F("turn_started_at") - by,
        turn_deadline=F("turn_deadline") - by,
        remind_at=F("remind_at") - by,
    )
    Vacation.objects.filter(player__in=list(players)).update(
        starts_at=F("starts_at") - by, ends_at=F("ends_at") - by
    )
    game.refresh_from_db()
