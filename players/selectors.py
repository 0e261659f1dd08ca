"""Reads of the players app: a player by id and their game statistics."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, F, Q

from games.models import GameStatus, Seat
from unoservice.errors import DomainError


@dataclass(frozen=True)
class PlayerStats:
    games_played: int
    """Finished games the player sat in, won or lost."""
    games_won: int
    """Finished games whose winner seat is the player's seat."""
    games_active: int
    """Games in progress the player sits in."""


def player_get(*, player_id: int) -> User:
    """The player with that id, or a ``not_found`` refusal."""
    player = User.objects.filter(pk=player_id).first()
    if player is None:
        raise DomainError("not_found", "No such player.")
    return player


def player_stats(*, player: User) -> PlayerStats:
    """Count the player's games in one query (a player holds at most one seat per game)."""
    finished = Q(game__status=GameStatus.FINISHED)
    counts = Seat.objects.filter(player=player).aggregate(
        games_played=Count("pk", filter=finished),
        games_won=Count("pk", filter=finished & Q(game__winner_seat=F("number"))),
        games_active=Count("pk", filter=Q(game__status=GameStatus.ACTIVE)),
    )
    return PlayerStats(
        games_played=counts["games_played"],
        games_won=counts["games_won"],
        games_active=counts["games_active"],
    )
