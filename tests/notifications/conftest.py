"""Fixtures of the notifications suite: players, games, and real parts on loopback.

- ``receiver``: a real HTTP server that records every request it gets and answers the statuses
  it is told to, in order (a webhook's receiver, or a browser's push service).
- ``workers``: two real Celery worker processes on the real Redis broker, consuming the
  notifications queue and reading the test database.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth.models import User
from django.db import connection
from pytest_django.fixtures import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.lobby import NewGame, game_create, game_join
from games.models import Game
from unoservice.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
WAIT = 60.0  # seconds: a bound for a machine under load, not an expected duration
QUEUES = ("celery", "notifications")
# A worker of the notifications queue, one task at a time, quick to start.
CELERY = [sys.executable, "-m", "celery", "-A", "unoservice", "worker", "-Q", "notifications"]
CELERY += ["-P", "solo", "-l", "info", "--without-mingle", "--without-gossip"]
_names = itertools.count(1)


def wait_for(condition: Callable[[], Any], timeout: float = WAIT, what: str = "it") -> Any:
    """Await a condition another thread or process makes true; its value."""
    end = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return value


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the notifications suite runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture(autouse=True)
def _loopback_allowed(settings: Settings) -> None:
    """The receivers listen on loopback, which production refuses (a test says so)."""
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = True


def client_for(user: User) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def users(db: None) -> list[User]:
    return [User.objects.create_user(f"seat{next(_names)}", password=None) for _ in range(4)]


def started_game(seated: list[User], **settings: Any) -> Game:
    """A game of ``seated`` (seat order = list order), started by the last one joining."""
    game = game_create(player=seated[0], spec=NewGame(max_players=len(seated), seed=7, **settings))
    for user in seated[1:]:
        game = game_join(player=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "active"
    return game


# --- a real HTTP server on loopback ---------------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Records requests; answers ``answers`` in order, then ``otherwise``."""

    url: str
    answers: list[int] = field(default_factory=list)
    otherwise: int = 200
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    hold: threading.Event | None = None  # set: requests wait for it before answering

    def answer(self, request: Received) -> int:
        with self.lock:
            self.requests.append(request)
            return self.answers.pop(0) if self.answers else self.otherwise

    def received(self, count: int, timeout: float = WAIT) -> list[Received]:
        wait_for(lambda: len(self.requests) >= count, timeout, f"{count} request(s)")
        with self.lock:
            return list(self.requests)


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


# --- the real broker and real worker processes ----------------------------------------------------


def _purge() -> None:
    with celery_app.connection_for_write() as conn:
        for queue in QUEUES:
            conn.default_channel.queue_purge(queue)


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery pointed at the real Redis broker (the suite otherwise runs tasks in-process)."""
    conf = celery_app.conf
    saved = {key: conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    _purge()
    try:
        yield celery_app
    finally:
        _purge()
        conf.update(saved)


def _test_database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database)."""
    base = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(base._replace(path="/" + str(connection.settings_dict["NAME"])))


@dataclass
class Workers:
    processes: list[subprocess.Popen[bytes]]
    env: dict[str, str]
    logs: list[Path]

    def idle(self) -> bool:
        """Nothing waits on the notifications queue and no worker is running a task."""
        with celery_app.connection_for_write() as conn:
            if conn.default_channel.client.llen("notifications"):
                return False
        active = celery_app.control.inspect(timeout=1.0).active() or {}
        return len(active) == len(self.processes) and not any(active.values())

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def start_workers(count: int, env: dict[str, str], tmp: Path) -> Workers:
    """``count`` worker processes, each one task at a time; returns once all answer a ping."""
    names = [f"notify{i}-{os.getpid()}@localhost" for i in range(count)]
    logs = [tmp / f"worker{i}.log" for i in range(count)]
    processes = []
    for name, log in zip(names, logs, strict=True):
        with log.open("wb") as out:
            processes.append(
                subprocess.Popen(
                    [*CELERY, "-n", name],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
    workers = Workers(processes, env, logs)

    def all_answer() -> bool:
        for process, log in zip(processes, logs, strict=True):
            if process.poll() is not None:
                raise AssertionError(f"a worker exited: {log.read_text()[-3000:]}")
        replies = celery_app.control.ping(destination=names, timeout=1.0) or []
        return {name for reply in replies for name in reply} >= set(names)

    try:
        wait_for(all_answer, what="the workers to start")
    except BaseException:
        workers.stop()
        raise
    return workers


@pytest.fixture
def worker_env(transactional_db: None, broker: Any) -> dict[str, str]:
    """The environment of a worker process: this test's database, the broker, no retry delay."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "CELERY_"))}
    return {
        **clean,
        "DATABASE_URL": _test_database_url(),
        "CELERY_BROKER_URL": REDIS_URL,
        "UNO_WEBHOOKS_ALLOW_PRIVATE": "1",
        "UNO_WEBHOOK_RETRY_DELAYS": "0",
        "UNO_SCHEDULE_HORIZON": "600",
        "LOG_FORMAT": "text",
    }
