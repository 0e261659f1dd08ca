"""Ratings: OpenSkill's Plackett-Luce model over the final standing of every finished game.

``rate_game`` runs inside the transaction that appends a game's end (``service.ratings``), so a
game's result and its ratings commit together or not at all. Every seat's player is rated, bots
too (a bot is a user). The rows are locked in the order of their ids: two games that end at once
and share players (the bots sit in many games) update one after the other, never deadlocking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.contrib.auth.models import User
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from players.models import Rating


@cache
def model() -> PlackettLuce:
    """The model with openskill's defaults (mu 25, sigma 25/3): tests rate with the same."""
    return PlackettLuce()


@dataclass(frozen=True)
class Shown:
    """A player's rating as the profile and the leaderboard show it."""

    mu: float
    sigma: float
    ordinal: float
    games_played: int
    games_won: int


def initial() -> PlackettLuceRating:
    return model().rating()


def shown(row: Rating | None) -> Shown:
    """``row``, or the starting rating of a player who has not finished a game."""
    if row is None:
        start = initial()
        return Shown(start.mu, start.sigma, start.ordinal(), 0, 0)
    return Shown(row.mu, row.sigma, row.ordinal, row.games_played, row.games_won)


def rating_of(player: User) -> Shown:
    return shown(Rating.objects.filter(user=player).first())


@dataclass(frozen=True)
class Placed:
    """A seat's player and their place in a game's final standing (1 is first; equal places
    are ties)."""

    player_id: int
    rank: int
    won: bool


def rate_game(standing: Sequence[Placed]) -> None:
    """Update the ratings of a finished game's players from its final standing."""
    if len(standing) < 2:
        return
    ids = sorted(p.player_id for p in standing)
    start = initial()
    Rating.objects.bulk_create(
        [
            Rating(user_id=pid, mu=start.mu, sigma=start.sigma, ordinal=start.ordinal())
            for pid in ids
        ],
        ignore_conflicts=True,
    )
    locked = Rating.objects.select_for_update().filter(user_id__in=ids).order_by("user_id")
    rows = {row.user_id: row for row in locked}
    teams = [
        [model().rating(mu=rows[p.player_id].mu, sigma=rows[p.player_id].sigma)] for p in standing
    ]
    rated = model().rate(teams, ranks=[p.rank for p in standing])
    now = timezone.now()
    for place, (after,) in zip(standing, rated, strict=True):
        row = rows[place.player_id]
        row.mu, row.sigma, row.ordinal = after.mu, after.sigma, after.ordinal()
        row.games_played += 1
        row.games_won += int(place.won)
        row.updated_at = now
    Rating.objects.bulk_update(
        list(rows.values()), ["mu", "sigma", "ordinal", "games_played", "games_won", "updated_at"]
    )
