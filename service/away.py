"""The vacations a game keeps on its row (``Game.away``), read from ``players.Vacation``.

A game reads them when its clock first runs and again whenever a vacation of one of its players
starts or ends (``service.vacations``), so that a move reads no other table; a game that has not
read them yet (a waiting game) gets them here before it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games import engine, selectors, timekeeping
from games.models import Game
from games.timekeeping import Away
from players.models import Vacation


def away_of(player_ids: Iterable[int], since: datetime) -> Away:
    """The vacations of ``player_ids`` that end after ``since``, as ``Game.away`` keeps them.

    A game keeps them beside its row (read once when it starts, set again when one of its
    players starts or ends a vacation) so that a move reads no other table."""
    found: Away = {}
    rows = (
        Vacation.objects.filter(player_id__in=list(player_ids), ends_at__gt=since)
        .order_by("starts_at")
        .values_list("player_id", "starts_at", "ends_at")
    )
    for player_id, begin, end in rows:
        found.setdefault(str(player_id), []).append([begin.isoformat(), end.isoformat()])
    return found


def game_view(game: Game, player: User, state: engine.GameState | None = None) -> dict[str, Any]:
    """``selectors.game_view``, with the players' vacations read into a game that keeps none
    yet (in memory only: reading writes nothing)."""
    if game.away is None and timekeeping.pauses(game):
        game.away = away_of([entry["id"] for entry in game.roster], timezone.now())
    return selectors.game_view(game, player, state=state)
