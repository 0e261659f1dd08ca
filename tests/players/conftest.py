"""Fixtures for the players suite: API clients and players made straight through the ORM."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, MakeUser, client_for


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_player() -> MakeUser:
    def make(username: str = "alice", password: str = PASSWORD, **extra: Any) -> User:
        return User.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def player(make_player: MakeUser) -> User:
    return make_player()


@pytest.fixture
def authed(player: User) -> APIClient:
    """A client that sends ``player``'s token."""
    return client_for(player)
