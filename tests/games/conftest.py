"""Fixtures of the game-service suite: players signed in with real DRF tokens, staff, spectators.

Every test here runs against PostgreSQL (the trigger and the row locks are PostgreSQL's).
"""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tests.support.players import MakePlayer, Player, player_for

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the game service suite runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture
def make_player(db: None) -> MakePlayer:
    """Makes a player (a Django user) and an ``APIClient`` sending their token."""

    def make(name: str | None = None, *, staff: bool = False) -> Player:
        username = f"{name or 'player'}{next(_names)}"
        # No password: these players sign in with tokens (and hashing one costs a second).
        user = User.objects.create_user(username=username, password=None, is_staff=staff)
        return player_for(user)

    return make


@pytest.fixture
def players(make_player: MakePlayer) -> list[Player]:
    """Four players: ada, bob, cy, dee."""
    return [make_player(name) for name in ("ada", "bob", "cy", "dee")]


@pytest.fixture
def staff(make_player: MakePlayer) -> Player:
    """A staff user: the only kind that may give a deck (and so sits at seat 0 of it)."""
    return make_player("boss", staff=True)


@pytest.fixture
def outsider(make_player: MakePlayer) -> Player:
    """Signed in, but without a seat in the games under test: a spectator."""
    return make_player("eve")
