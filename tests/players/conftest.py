"""Fixtures for the players suite: API clients and players made straight through the ORM."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

PASSWORD = "correct-horse-battery-9"

MakePlayer = Callable[..., User]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_player() -> MakePlayer:
    def make(username: str = "alice", password: str = PASSWORD, **extra: Any) -> User:
        return User.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def player(make_player: MakePlayer) -> User:
    return make_player()


@pytest.fixture
def authed(player: User) -> APIClient:
    """A client that sends ``player``'s token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
