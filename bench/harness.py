"""The benchmarks' shared core: a database, the server's processes, an HTTP client, the figures.

``bench/service.py``, ``bench/load.py`` and ``bench/faults.py`` start the service on loopback the
same way and talk to it through ``Client`` (httpx, one keep-alive connection per client thread).
The random player is ``games.engine.bots.choose``, the one the tests use too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from games import engine

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SERVER = "postgres://postgres@127.0.0.1:5432"
HOST = "127.0.0.1"
API = "/api/v1"

# The service's guards against one greedy player (issue 11), off for benchmarks that play many
# games as a few players and give seeds to fold games locally.
# One known salt for every game (never in production): a client that gives the seed folds the
# same deals locally (docs/fairness.md).
BENCH_SALT = "be" * 32
LIMITS_OFF = {
    "UNO_SEEDS_FROM_PLAYERS": "1",
    "UNO_TEST_SALT": BENCH_SALT,
    "UNO_THROTTLE_GAMES": "off",
    "UNO_THROTTLE_JOINS": "off",
    "UNO_THROTTLE_REPLAYS": "off",
    "UNO_MAX_WAITING_GAMES": "1000000",
}

# What a client could not get an answer through: no connection, a dropped one, a timeout.
NoAnswer = httpx.TransportError


def percentile(samples: list[float], q: float, empty: float = 0.0) -> float:
    """The ``q`` quantile of ``samples`` (nearest rank, no interpolation); ``empty`` if none."""
    if not samples:
        return empty
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


# --- the database and Django in this process -----------------------------------------------------


def service_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of the service's processes: production settings on plain loopback HTTP."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "unoservice.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-benchmark-only-secret-key-0123",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain http on loopback
        "DJANGO_SECURE_COOKIES": "0",
        "DATABASE_URL": database_url,
        "DATABASE_CONN_MAX_AGE": "600",
        "UNO_ACCESS_TOKEN_SECONDS": "86400",  # the benchmarks' players never refresh
        **extra,
    }


def prepare_database(name: str, env: Mapping[str, str]) -> None:
    """A fresh database ``name`` on the local server, migrated."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=dict(env), check=True
    )


def setup_django(env: Mapping[str, str]) -> None:
    """Django in this process, on the benchmark's database (for its players and checks)."""
    os.environ.update(env)
    import django

    django.setup()


def make_tokens(count: int, prefix: str, password: str | None = None) -> list[str]:
    """``count`` players, each signed in once: their sessions' access tokens, what clients send
    (``players.sessions``; no password unless given: they only use tokens). The access tokens
    live ``UNO_ACCESS_TOKEN_SECONDS``, a day in the benchmarks' environment (``service_env``)."""
    from django.contrib.auth.models import User

    from players.sessions import session_start

    tokens = []
    for i in range(count):
        user = User.objects.create_user(f"{prefix}{i}", password=password)
        tokens.append(session_start(user=user).access)
    return tokens


# --- processes ------------------------------------------------------------------------------------


def spawn(
    argv: list[str], env: Mapping[str, str], output: IO[bytes] | int
) -> subprocess.Popen[bytes]:
    """A process of the service, in a session of its own so that ``stop`` ends its children."""
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        env=dict(env),
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def processes() -> Iterator[tuple[int, str, list[str]]]:
    """Every process now: its pid, its name (``pid (name``) and the fields of /proc/pid/stat
    after the name (proc(5)'s third onwards: state, ppid, ..., utime, stime, cutime, cstime)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                name, rest = stat.read().rsplit(")", 1)
        except (OSError, ValueError):  # the process ended meanwhile
            continue
        yield int(entry), name, rest.split()


def children(pid: int) -> list[int]:
    """The pids of the processes whose parent is ``pid`` (a server's workers), from /proc."""
    return [child for child, _, fields in processes() if int(fields[1]) == pid]


def stop(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    """Signal the process's group, wait; SIGKILL it if it outstays 30 s."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def gunicorn_argv(port: int, *options: str, config: str = "unoservice.gunicorn_conf") -> list[str]:
    """gunicorn with a deployed configuration (gthread workers by default), bound to loopback."""
    return [
        str(BIN / "gunicorn"),
        "-c",
        f"python:{config}",
        "--bind",
        f"{HOST}:{port}",
        *options,
    ]


def wait_until(ready: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``ready`` (errors count as not ready) until it holds, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, httpx.HTTPError):
            if ready():
                return
        time.sleep(0.2)
    raise RuntimeError(f"{what} within {seconds:g} s")


def answers(port: int, path: str) -> bool:
    """True when ``path`` answers 200 on loopback."""
    return httpx.get(f"http://{HOST}:{port}{path}", timeout=2).status_code == 200


def children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


# --- HTTP -----------------------------------------------------------------------------------------


class Client:
    """One client of the service: keep-alive connections, JSON in and out, a token per call.

    gunicorn closes a connection idle for ``keepalive`` seconds (5) and those of a worker it
    recycles; a request written on one at that moment is lost. So the client lets go of its own
    idle connections first (``KEEPALIVE``), and httpx checks that a pooled connection is still
    open before it reuses one.
    """

    KEEPALIVE = 4.0  # seconds: below gunicorn's keepalive (unoservice/gunicorn_conf.py)

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        # httpx logs every request at INFO: with Django's logging set up in this process, that
        # would be a line (and the client's CPU) per request.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        self.port = port
        self.session = httpx.Client(
            base_url=f"http://{HOST}:{port}",
            timeout=timeout,
            limits=httpx.Limits(keepalive_expiry=self.KEEPALIVE),
        )

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, Any]:
        """(status, JSON body or None); a body that is not JSON reads as a ``not_json`` error.
        Raises ``NoAnswer`` when no answer came."""
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Token {token}"
        payload = None if body is None else json.dumps(body)
        response = self.session.request(method, path, content=payload, headers=sent)
        data = response.content
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = {"code": "not_json", "detail": data[:200].decode(errors="replace")}
        return response.status_code, parsed

    def close(self) -> None:
        self.session.close()


def metrics_at(url: str) -> dict[str, float]:
    """Prometheus text at ``url`` → {sample name with labels: value} (sums are what we read)."""
    values: dict[str, float] = {}
    for line in httpx.get(url, timeout=5).text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, value = line.rpartition(" ")
        with contextlib.suppress(ValueError):
            values[name] = values.get(name, 0.0) + float(value)
    return values


# --- games mirrored locally -----------------------------------------------------------------------


@dataclass
class Mirror:
    """A game on the server and the same game folded locally from its seed: the client knows who
    must act and what is legal without reading the game."""

    id: str
    tokens: list[str]  # by seat
    state: engine.GameState
    version: int


def fold_start(players: int, settings: Mapping[str, Any]) -> tuple[engine.GameState, int]:
    """The state and version of a game the server just started with ``settings`` (its seed
    included), folded locally."""
    options = engine.make_options(
        dict(settings.get("rules") or {}),
        target_score=settings.get("target_score", 500),
        max_timeouts=settings.get("max_timeouts", 3),
    )
    events = engine.start_game(players, options, settings["seed"], salt=BENCH_SALT)
    return engine.replay(events), len(events)
