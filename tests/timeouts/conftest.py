"""Fixtures for the time suite: players, games, and a real Celery worker on the real Redis."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.lobby import NewGame, game_create, game_join
from games.models import Game
from unoservice.celery import app as celery_app

# A database of its own on the machine's Redis, so the suite never reads another's messages.
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture
def players(db: Any) -> list[User]:
    return [User.objects.create_user(f"player{i}", password="a long pass phrase") for i in range(4)]


def client_for(user: User) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def started_game(seated: list[User], **settings: Any) -> Game:
    """A started game of ``seated`` players (seat order = list order), created through services."""
    spec = NewGame(max_players=len(seated), seed=7, **settings)
    game = game_create(player=seated[0], spec=spec)
    for user in seated[1:]:
        game = game_join(player=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "active"
    return game


def make_overdue(game: Game, by: timedelta = timedelta(seconds=1)) -> None:
    """As if the clock had run past the game's deadline (without waiting for it)."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - by)
    game.refresh_from_db()


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery pointed at the real Redis broker (the suite otherwise runs tasks in-process)."""
    conf = celery_app.conf
    saved = {key: conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(conf.task_default_queue)
    try:
        yield celery_app
    finally:
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_purge(conf.task_default_queue)
        conf.update(saved)


@pytest.fixture
def worker(broker: Any) -> Iterator[Any]:
    """A real Celery worker consuming from Redis, in a thread of the test process."""
    with start_worker(broker, pool="solo", perform_ping_check=False, shutdown_timeout=30) as w:
        yield w
