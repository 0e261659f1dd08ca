"""Fixtures of the hostile-input suite: real players with real tokens, a started game, a lobby."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from games import engine
from games.engine.snapshot import state_from_data
from games.lobby import NewGame, game_create, game_join
from games.models import Event, Game, Hand
from tests.games.helpers import client_for, game_url

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the hostile-input suite runs on PostgreSQL: set DATABASE_URL")


@dataclass
class Table:
    """A started 2-player game: ``actor`` must act now, ``waiter`` sits and waits, ``outsider``
    has a token and no seat."""

    id: str
    actor: APIClient
    waiter: APIClient
    outsider: APIClient
    actor_seat: int

    def url(self, suffix: str = "") -> str:
        return game_url(self.id, suffix)

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refused request must leave as it was."""
        game = Game.objects.get(pk=self.id)
        hands = list(Hand.objects.filter(game_id=self.id).order_by("seat").values_list("cards"))
        return game.version, Event.objects.filter(game_id=self.id).count(), game.state, hands


def _user(tag: str) -> User:
    return User.objects.create_user(f"{tag}{next(_names)}", password=None)


@pytest.fixture
def table(db: None) -> Table:
    a, b, eve = _user("ada"), _user("bob"), _user("eve")
    game = game_create(player=a, spec=NewGame(max_players=2, seed=424242))
    game = game_join(player=b, game_id=game.pk)
    game.refresh_from_db()
    state = state_from_data(game.state)  # type: ignore[arg-type]
    seat = state.actor
    assert engine.legal_actions(state, seat)
    users = (a, b) if seat == 0 else (b, a)
    return Table(str(game.pk), client_for(users[0]), client_for(users[1]), client_for(eve), seat)


@dataclass
class Lobby:
    id: str
    host: APIClient
    guest: APIClient
    outsider: APIClient

    def url(self, suffix: str = "") -> str:
        return game_url(self.id, suffix)


@pytest.fixture
def lobby(db: None) -> Lobby:
    host, guest, eve = _user("host"), _user("guest"), _user("eve")
    game = game_create(player=host, spec=NewGame(max_players=4))
    game_join(player=guest, game_id=game.pk)
    return Lobby(str(game.pk), client_for(host), client_for(guest), client_for(eve))
