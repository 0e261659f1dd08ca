"""Fixtures of the tables suite: players with real DRF tokens, staff, and (for the bots that fill
a quick match) the real Celery worker on the real Redis of the time suite."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tests.support.players import MakePlayer, Player, player_for
from tests.timeouts.conftest import broker, worker

__all__ = ["broker", "worker"]  # the time suite's fixtures, used here too
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the tables suite runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture(autouse=True)
def _no_bot_delay(settings: Any) -> None:
    settings.UNO_BOT_DELAY = 0


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


@pytest.fixture
def outsider(make_player: MakePlayer) -> Player:
    return make_player("eve")


@pytest.fixture
def staff(make_player: MakePlayer) -> Player:
    return make_player("boss", staff=True)
