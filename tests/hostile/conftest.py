"""Fixtures of the hostile-input suite: real players with real tokens, a started game, a lobby."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games import engine
from games.engine.snapshot import state_from_data
from service.lobby import NewGame, game_create, game_join
from tests.support.players import client_for, player_for
from tests.support.table import Lobby, Table

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the hostile-input suite runs on PostgreSQL: set DATABASE_URL")


def _user(tag: str) -> User:
    return User.objects.create_user(f"{tag}{next(_names)}", password=None)


@pytest.fixture
def table(db: None) -> Table:
    a, b, eve = _user("ada"), _user("bob"), _user("eve")
    game = game_create(player=a, spec=NewGame(max_players=2, seed=424242))
    game = game_join(player=b, game_id=game.pk)
    game.refresh_from_db()
    state = state_from_data(game.state)
    assert engine.legal_actions(state, state.actor)
    return Table(str(game.pk), [player_for(a), player_for(b)], outsider=player_for(eve))


@pytest.fixture
def lobby(db: None) -> Lobby:
    host, guest, eve = _user("host"), _user("guest"), _user("eve")
    game = game_create(player=host, spec=NewGame(max_players=4))
    game_join(player=guest, game_id=game.pk)
    return Lobby(str(game.pk), client_for(host), client_for(guest), client_for(eve))
