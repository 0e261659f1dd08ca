"""Fixtures for the time suite: players, games, and a real Celery worker on the real Redis."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User

from unoservice.celery import app as celery_app

# A database of its own on the machine's Redis, so the suite never reads another's messages.
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture
def players(db: Any) -> list[User]:
    return [User.objects.create_user(f"player{i}", password="a long pass phrase") for i in range(4)]


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
