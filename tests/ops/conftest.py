"""Fixtures of the operations suite: players with real tokens, a started two-player game.

Everything runs through HTTP (DRF's ``APIClient``); the database is read only for the truth
(the hands) that the answers must not reveal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django.fixtures import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Hand

PASSWORD = "a sturdy pass phrase 42"
GAMES = "/api/v1/games/"
_names = itertools.count(1)


@dataclass
class Player:
    user: User
    client: APIClient
    token: str


def client_with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


MakePlayer = Callable[..., Player]


@pytest.fixture
def make_player(db: None) -> MakePlayer:
    def make(name: str = "player", *, staff: bool = False) -> Player:
        user = User.objects.create_user(f"{name}{next(_names)}", password=PASSWORD, is_staff=staff)
        token, _ = Token.objects.get_or_create(user=user)
        return Player(user, client_with(token.key), token.key)

    return make


@dataclass
class Table:
    id: str
    players: list[Player]

    def url(self, suffix: str = "") -> str:
        return f"{GAMES}{self.id}/{suffix + '/' if suffix else ''}"

    def view(self, seat: int) -> dict[str, Any]:
        response = self.players[seat].client.get(self.url())
        assert response.status_code == 200, response.content
        return dict(response.json())

    def actor(self) -> int:
        round_ = self.view(0)["round"]
        pending = round_["pending"]
        return int(pending["seat"] if pending else round_["current_seat"])

    def hands(self) -> dict[int, list[str]]:
        return {h.seat: list(h.cards) for h in Hand.objects.filter(game_id=self.id)}


def start_game(host: Player, *others: Player, **settings: Any) -> Table:
    """A game created by ``host`` for ``1 + len(others)`` seats; the last join starts it."""
    body = {"max_players": 1 + len(others), "seed": 20261129, **settings}
    response = host.client.post(GAMES, body, format="json")
    assert response.status_code == 201, response.content
    table = Table(response.json()["id"], [host, *others])
    for player in others:
        joined = player.client.post(table.url("join"))
        assert joined.status_code == 200, joined.content
    assert table.view(0)["status"] == "active"
    return table


@pytest.fixture
def table(make_player: MakePlayer) -> Table:
    return start_game(make_player("ada"), make_player("bob"))


@pytest.fixture
def throttle_rates(settings: Settings) -> Iterator[Callable[..., None]]:
    """Set throttle rates for the test (the suite runs without), from a clean count."""

    def set_rates(**rates: str | None) -> None:
        settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, **rates}

    cache.clear()
    yield set_rates
    cache.clear()
