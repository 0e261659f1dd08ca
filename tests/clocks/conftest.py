"""Fixtures of the clocks suite: players with tokens, and the time suite's real worker."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tests.support.players import MakePlayer, Player, player_for
from tests.timeouts.conftest import broker, worker

__all__ = ["broker", "worker"]

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the clocks suite runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture
def make_player(db: None) -> MakePlayer:
    def make(name: str | None = None, *, staff: bool = False) -> Player:
        username = f"{name or 'player'}{next(_names)}"
        user = User.objects.create_user(username=username, password=None, is_staff=staff)
        return player_for(user)

    return make


@pytest.fixture
def players(make_player: MakePlayer) -> list[Player]:
    return [make_player(name) for name in ("ada", "bob", "cy", "dee")]
