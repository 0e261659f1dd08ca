"""Fixtures of the notifications suite: players, games, and real parts on loopback.

- ``receiver``: a real HTTP server that records every request it gets and answers the statuses
  it is told to, in order (a webhook's receiver, or a browser's push service).
- ``workers``: two real Celery worker processes on the real Redis broker, consuming the
  notifications queue and reading the test database."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

from unoservice.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


WAIT = 60.0  # seconds: a bound for a machine under load, not an expected duration


QUEUES = ("celery", "notifications")


# A worker of the notifications queue, one task at a time, quick to start.
CELERY = [sys.executable, "-m", "celery", "-A", "unoservice", "worker", "-Q", "notifications"]


CELERY += ["-P", "solo", "-l", "info", "--without-mingle", "--without-gossip"]


names = itertools.count(1)


def wait_for(condition: Callable[[], Any], timeout: float = WAIT, what: str = "it") -> Any:
    """Await a condition another thread or process makes true; its value."""
    end = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return value


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


@contextmanager
def receiving() -> Iterator[Receiver]:
    """A ``Receiver`` listening on loopback (a webhook's receiver, or a browser's push service)
    while the block runs."""
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


def purge_queues() -> None:
    with celery_app.connection_for_write() as conn:
        for queue in QUEUES:
            conn.default_channel.queue_purge(queue)


def database_url_of_tests() -> str:
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


def start_workers(count: int, env: dict[str, str], tmp: Path, *, beat: bool = False) -> Workers:
    """``count`` worker processes, each one task at a time; returns once all answer a ping.
    With ``beat``, the first runs the beat's schedule too (``-B``: the periodic sweeps, every
    ``UNO_SWEEP_INTERVAL`` seconds of ``env``)."""
    names = [f"notify{i}-{os.getpid()}@localhost" for i in range(count)]
    logs = [tmp / f"worker{i}.log" for i in range(count)]
    processes = []
    for index, (name, log) in enumerate(zip(names, logs, strict=True)):
        schedule = ["-B", "-s", str(tmp / "beat-schedule")] if beat and index == 0 else []
        with log.open("wb") as out:
            processes.append(
                subprocess.Popen(
                    [*CELERY, "-n", name, *schedule],
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
