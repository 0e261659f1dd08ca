"""Games for the time suite: started through services, and made overdue without waiting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games.lobby import NewGame, game_create, game_join
from games.models import Game


def started_game(seated: list[User], **settings: Any) -> Game:
    """A started game of ``seated`` players (seat order = list order), created through services."""
    spec = NewGame(max_players=len(seated), seed=7, **settings)
    game = game_create(player=seated[0], spec=spec)
    for user in seated[1:]:
        game = game_join(player=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "active"
    return game


def make_overdue(game: Game, by: timedelta = timedelta(seconds=1)) -> None:
    """As if the clock had run past the game's deadline (without waiting for it)."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - by)
    game.refresh_from_db()
