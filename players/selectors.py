"""Reads of the players app: a player by id and their game statistics."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import Count, F, Q, QuerySet

from games.models import TEAMS_KEY, GameStatus, Seat
from players.models import Rating
from unoservice import replica
from unoservice.errors import DomainError


@dataclass(frozen=True)
class PlayerStats:
    games_played: int
    """Finished games the player sat in, won or lost."""
    games_won: int
    """Finished games whose winner seat is the player's seat (with teams: won by their team)."""
    games_active: int
    """Games in progress the player sits in."""


def player_get(*, player_id: int) -> User:
    """The player with that id, or a ``not_found`` refusal (a deleted account's too)."""
    player = User.objects.filter(pk=player_id, deleted_account__isnull=True).first()
    if player is None:
        raise DomainError("not_found", "No such player.")
    return player


# What a username may hold (registration's rule): anything else names no one, and is not sent to
# the database (a NUL in the path was a 500: PostgreSQL's text holds none).
_USERNAME = re.compile(UnicodeUsernameValidator.regex)
_USERNAME_MAX = User._meta.get_field("username").max_length or 150


def player_named(*, username: str) -> User:
    """The player with that username (ignoring case, as usernames are unique), or ``not_found``."""
    if len(username) > _USERNAME_MAX or not _USERNAME.match(username):
        raise DomainError("not_found", f"No player is named {username!r}.")
    player = User.objects.filter(username__iexact=username, deleted_account__isnull=True).first()
    if player is None:
        raise DomainError("not_found", f"No player is named {username!r}.")
    return player


@replica.lagging  # a profile's counts may be a moment behind
def player_stats(*, player: User) -> PlayerStats:
    """Count the player's games in one query (a player holds at most one seat per game)."""
    finished = Q(game__status=GameStatus.FINISHED)
    teams = Q(game__rules__has_key=TEAMS_KEY)
    counts = Seat.objects.filter(player=player).aggregate(
        games_played=Count("pk", filter=finished),
        games_won=Count("pk", filter=finished & ~teams & Q(game__winner_seat=F("number"))),
        games_active=Count("pk", filter=Q(game__status=GameStatus.ACTIVE)),
    )
    return PlayerStats(
        games_played=counts["games_played"],
        games_won=counts["games_won"] + _team_games_won(player),
        games_active=counts["games_active"],
    )


def _team_games_won(player: User) -> int:
    """Finished games of partners won by the player's team: a team's win counts for each member.

    The winning team is in the game's engine snapshot (``winner_team``); ``teams`` is kept in the
    rules column (``games.models.TEAMS_KEY``)."""
    rows = Seat.objects.filter(
        player=player, game__status=GameStatus.FINISHED, game__rules__has_key=TEAMS_KEY
    ).values_list("number", "game__rules", "game__state")
    won = 0
    for number, rules, state in rows:
        team = (state or {}).get("winner_team")
        if team is not None and number % rules[TEAMS_KEY] == team:
            won += 1
    return won


@replica.lagging
def leaderboard() -> QuerySet[Rating]:
    """Every rated player but deleted accounts, by ordinal (highest first; equal ordinals by id,
    so pages are stable)."""
    rated = Rating.objects.filter(user__deleted_account__isnull=True)
    return rated.select_related("user", "user__bot", "user__bot_account").order_by(
        "-ordinal", "user_id"
    )
