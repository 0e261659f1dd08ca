"""Vacations, a command that crosses apps: the vacation is a row of ``players``, and every game
its player sits in reads it again and moves its deadline (their clock stands still while away).

Both happen in one transaction: a vacation that is refused moves no clock, and a deadline never
moves for a vacation that was not stored.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from players import services
from players.models import Vacation
from service.clock import reclock_games_of


def vacation_start(*, player: User, days: int) -> Vacation:
    """Start a vacation of ``days`` now: the player's clocks stand still until it ends in every
    game that pauses (``games.timekeeping``)."""
    with transaction.atomic():
        vacation = services.vacation_start(player=player, days=days)
        reclock_games_of(player.pk)
    return vacation


def vacation_end(*, player: User) -> Vacation:
    """End the current vacation now: the deadlines it moved come back to now plus the time that
    was left."""
    with transaction.atomic():
        vacation = services.vacation_end(player=player)
        reclock_games_of(player.pk)
    return vacation
