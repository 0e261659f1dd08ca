"""Fixtures of this suite; its helpers are in tests.support.streams."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from tests.support.streams import KEEPALIVE, QUICK_KEEPALIVE, Seat, Server, Stream, run_server


@pytest.fixture(scope="session")
def server(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """``gunicorn -c python:unoservice.gunicorn_asgi unoservice.asgi:application``, 2 workers."""
    yield from run_server(django_db_blocker, tmp_path_factory, KEEPALIVE)


@pytest.fixture(scope="session")
def quick_server(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The same server, with keep-alives every ``QUICK_KEEPALIVE`` seconds."""
    yield from run_server(django_db_blocker, tmp_path_factory, QUICK_KEEPALIVE)


@pytest.fixture(scope="session")
def watchful_server(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """Quick keep-alives, and a stream asks after its session at every frame."""
    env = {"UNO_STREAM_SESSION_CHECK": "0"}
    yield from run_server(django_db_blocker, tmp_path_factory, QUICK_KEEPALIVE, env)


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    """Streams a test opened (append them): closed at the end, whatever happened."""
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


@pytest.fixture
def make_seat(transactional_db: None) -> Any:
    made = iter(range(1, 10_000))

    def make(name: str = "player") -> Seat:
        user = User.objects.create_user(f"{name}{next(made)}", password=None)
        return Seat(user, Token.objects.create(user=user).key)

    return make
