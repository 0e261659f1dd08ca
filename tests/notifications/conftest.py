"""Fixtures of this suite; its helpers are in tests.support.notifications."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from pytest_django.fixtures import Settings

from notifications.webpush import generate_private_key
from tests.support.notifications import (
    REDIS_URL,
    Receiver,
    database_url_of_tests,
    names,
    purge_queues,
    receiving,
)
from unoservice.celery import app as celery_app


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the notifications suite runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture(autouse=True)
def _loopback_allowed(settings: Settings) -> None:
    """The receivers listen on loopback, which production refuses (a test says so)."""
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = True


@pytest.fixture
def users(db: None) -> list[User]:
    return [User.objects.create_user(f"seat{next(names)}", password=None) for _ in range(4)]


@pytest.fixture
def vapid(settings: Settings) -> str:
    settings.UNO_VAPID_PRIVATE_KEY, public = generate_private_key()
    return public


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as running:
        yield running


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery pointed at the real Redis broker (the suite otherwise runs tasks in-process)."""
    conf = celery_app.conf
    saved = {key: conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    purge_queues()
    try:
        yield celery_app
    finally:
        purge_queues()
        conf.update(saved)


@pytest.fixture
def worker_env(transactional_db: None, broker: Any) -> dict[str, str]:
    """The environment of a worker process: this test's database, the broker, no retry delay."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "CELERY_"))}
    return {
        **clean,
        "DATABASE_URL": database_url_of_tests(),
        "CELERY_BROKER_URL": REDIS_URL,
        "UNO_WEBHOOKS_ALLOW_PRIVATE": "1",
        "UNO_WEBHOOK_RETRY_DELAYS": "0",
        "UNO_SCHEDULE_HORIZON": "600",
        "LOG_FORMAT": "text",
    }
