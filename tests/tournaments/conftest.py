"""Fixtures of the tournaments suite: the game suite's players (PostgreSQL only), no bot delay,
and a real Celery worker on a Redis database of this suite's own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker

from tests.games.conftest import _postgresql_only, make_player, outsider, players, staff
from tests.timeouts.conftest import REDIS_URL
from unoservice.celery import app as celery_app

__all__ = ["_postgresql_only", "make_player", "outsider", "players", "staff"]

# The worker suites' one Redis database: Celery keeps the producer pool of the first broker a
# test process uses, so a second URL would send the tasks where this suite's worker never reads.


@pytest.fixture(autouse=True)
def _no_bot_delay(settings: Any) -> None:
    settings.UNO_BOT_DELAY = 0


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery pointed at the real Redis broker (the suite otherwise runs tasks in-process)."""
    conf = celery_app.conf
    saved = {key: conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    with celery_app.connection_for_write() as connection:
        for queue in ("celery", "notifications"):
            connection.default_channel.queue_purge(queue)
    try:
        yield celery_app
    finally:
        with celery_app.connection_for_write() as connection:
            for queue in ("celery", "notifications"):
                connection.default_channel.queue_purge(queue)
        conf.update(saved)


@pytest.fixture
def worker(broker: Any) -> Iterator[Any]:
    """A real Celery worker consuming the suite's Redis, in a thread of the test process: it
    runs the tournaments' steps, the bots' turns and the deliveries."""
    with start_worker(
        broker,
        pool="solo",
        perform_ping_check=False,
        shutdown_timeout=30,
        queues=["celery", "notifications"],
    ) as w:
        yield w
