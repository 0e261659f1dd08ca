"""Fixtures of this suite; its helpers are in tests.support.notifications."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from pytest_django.fixtures import Settings

from tests.support.notifications import (
    REDIS_URL,
    WAIT,
    Received,
    Receiver,
    database_url_of_tests,
    names,
    purge_queues,
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
def receiver() -> Iterator[Receiver]:
    state: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            got = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            hold = state["r"].hold
            if hold is not None:
                hold.wait(WAIT)
            status = state["r"].answer(got)
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state["r"] = Receiver(f"http://127.0.0.1:{server.server_address[1]}/hook")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state["r"]
    finally:
        if state["r"].hold is not None:
            state["r"].hold.set()
        server.shutdown()
        server.server_close()


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
