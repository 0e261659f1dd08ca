"""Load: many whole games at once over HTTP against gunicorn, PostgreSQL and a real Celery worker.

Run ``.venv/bin/python bench/load.py --games 100`` (or ``--search``). It makes a database of its
own (``unoservice_load``), a Redis database of its own for the broker, and starts as subprocesses
gunicorn (the deployed ``unoservice/gunicorn_conf.py``, bound to loopback), a Celery worker and
Celery beat. Then it keeps ``--games`` games in play at once, each in a *slot*: when a game ends
its slot creates the next one. Games have 2 to 4 seats, one of several house-rule sets, and a
target score of 1 (one round) or 100 (several rounds).

The processes, the HTTP client (httpx) and the percentiles are ``bench/harness.py``'s; the bots
(``games.engine.bots.choose``) choose among the legal actions. Like ``bench/service.py``, the
client folds every action through ``games.engine`` locally from the game's seed, so it knows who
must act and what is legal without reading the game. Between two actions of a game a bot thinks
for about ``--think`` seconds, so the offered load is about ``games / think`` actions per second.

Some games (``--idle-fraction``) have a short ``turn_timeout`` (3 s) and one sleepy seat that
lets about half of its turns run out: the worker's deadline tasks (or the beat sweep) play those
turns, and after ``max_timeouts`` (2) in a row the seat forfeits. The client learns of a timeout by
reading the game once the deadline has passed and folds ``engine.time_out`` locally until it
reaches the server's version again.

It reports actions/s, p50/p95/p99 latency, errors by status and code, the timeouts the worker and
the web processes applied, and at the end checks every game in the database:

- the log has no gaps (seqs 1..version) and ``version`` is its last seq;
- the projections equal a rebuild from the log (``games.projections.rebuild_game``);
- every state along every log holds the 108 cards (hands, draw pile, discard pile);
- finished games replay to their final state (the log, and ``GET /replay/?at=version``);
- the client's own fold of each game equals the server's log at the same version.

``--search`` steps the number of games up (doubling, then bisecting) and reports the largest that
keeps action p99 under 200 ms with no errors and the bots on schedule.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402
from bench.harness import (  # noqa: E402
    API,
    HOST,
    SERVER,
    Client,
    Mirror,
    NoAnswer,
    children_of,
    fold_start,
    free_port,
    percentile,
)
from games import engine  # noqa: E402
from games.engine.bots import choose  # noqa: E402

# House-rule sets the games are drawn from (each keeps "who must act" a single seat).
RULE_SETS: list[dict[str, Any]] = [
    {},
    {},
    {"stacking": True, "reverse_bounce": True},
    {"draw_until_playable": True},
    {"seven_zero": True},
    {"force_play": True, "scoring": "penalty"},
]
SHORT_TIMEOUT = 3  # seconds: the turn_timeout of games with a sleepy seat
LONG_TIMEOUT = 3600
GRACE = 0.8  # seconds after a deadline before the client looks for the timeout
P99_LIMIT = 0.200
LAG_LIMIT = 0.200
# How often a bot plays a card when it can (games end sooner), else anything legal.
PREFER_PLAY = 0.85


# --- the stack: gunicorn, a Celery worker, Celery beat --------------------------------------------


@dataclass
class StackConfig:
    db_name: str = "unoservice_load"
    broker_db: int = 7
    broker_port: int = 6379
    port: int = 8766
    web_workers: int = 2
    web_threads: int = 8
    worker_concurrency: int = 2
    sweep_interval: float = 1.0
    conn_max_age: int = 600
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def database_url(self) -> str:
        return f"{SERVER}/{self.db_name}"

    @property
    def broker_url(self) -> str:
        return f"redis://127.0.0.1:{self.broker_port}/{self.broker_db}"


class Stack:
    """The service's processes on a database and a broker database of their own."""

    def __init__(self, config: StackConfig) -> None:
        self.config = config
        self.workdir = Path(tempfile.mkdtemp(prefix=f"{config.db_name}-"))
        self.worker_metrics_port = free_port()
        self.web: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None

    def env(self) -> dict[str, str]:
        config = self.config
        return harness.service_env(
            config.database_url,
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_CONN_MAX_AGE=str(config.conn_max_age),
            CELERY_BROKER_URL=config.broker_url,
            UNO_THROTTLE_REGISTRATION="off",
            UNO_THROTTLE_TOKEN="off",
            UNO_THROTTLE_ACTIONS="off",
            **harness.LIMITS_OFF,
            UNO_SWEEP_INTERVAL=str(config.sweep_interval),
            LOG_LEVEL="WARNING",
            LOG_FORMAT="text",
            PORT=str(config.port),
            WEB_CONCURRENCY=str(config.web_workers),
            GUNICORN_THREADS=str(config.web_threads),
            **config.extra_env,
        )

    def prepare_database(self) -> None:
        harness.prepare_database(self.config.db_name, self.env())

    def purge_broker(self) -> None:
        import redis

        redis.Redis.from_url(self.config.broker_url).flushdb()

    def _spawn(self, name: str, argv: list[str], extra: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"{name}.log").open("ab")
        return harness.spawn(argv, {**self.env(), **extra}, log)

    def start_web(self) -> None:
        metrics = self.workdir / "web-metrics"
        self.web = self._spawn(
            "web",
            harness.gunicorn_argv(self.config.port, "unoservice.wsgi:application"),
            {"PROMETHEUS_MULTIPROC_DIR": str(metrics)},
        )
        self.wait_http("/healthz", 60)

    def start_worker(self) -> None:
        metrics = self.workdir / "worker-metrics"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir()
        self.worker = self._spawn(
            "worker",
            [
                str(harness.BIN / "celery"),
                "-A",
                "unoservice",
                "worker",
                "-l",
                "warning",
                "--concurrency",
                str(self.config.worker_concurrency),
                "--without-gossip",
                "--without-mingle",
                "--hostname",
                f"load-{uuid.uuid4().hex[:8]}@%h",
            ],
            {
                "PROMETHEUS_MULTIPROC_DIR": str(metrics),
                "UNO_WORKER_METRICS_PORT": str(self.worker_metrics_port),
            },
        )

    def start_beat(self) -> None:
        self.beat = self._spawn(
            "beat",
            [
                str(harness.BIN / "celery"),
                "-A",
                "unoservice",
                "beat",
                "-l",
                "warning",
                "--schedule",
                str(self.workdir / "beat-schedule"),
            ],
            {},
        )

    def start(self) -> None:
        self.purge_broker()
        self.start_web()
        self.start_worker()
        self.start_beat()
        self.wait_worker(60)

    def stop_worker(self, sig: int = signal.SIGTERM) -> None:
        harness.stop(self.worker, sig)
        self.worker = None

    def stop_beat(self) -> None:
        harness.stop(self.beat)
        self.beat = None

    def stop_web(self) -> None:
        harness.stop(self.web)
        self.web = None

    def stop(self) -> None:
        self.stop_beat()
        self.stop_worker()
        self.stop_web()

    def wait_http(self, path: str, seconds: float) -> None:
        port = self.config.port
        harness.wait_until(
            lambda: harness.answers(port, path),
            seconds,
            f"{path} did not answer (see {self.workdir})",
        )

    def wait_worker(self, seconds: float) -> None:
        """Until the worker serves its metrics (it has booted)."""
        harness.wait_until(
            lambda: self.worker_metrics() is not None,
            seconds,
            f"the Celery worker did not start (see {self.workdir})",
        )

    def worker_metrics(self) -> dict[str, float]:
        return harness.metrics_at(f"http://{HOST}:{self.worker_metrics_port}/")

    def web_metrics(self) -> dict[str, float]:
        return harness.metrics_at(f"http://{HOST}:{self.config.port}/metrics")

    def web_worker_pids(self) -> list[int]:
        """The gunicorn workers (children of the master)."""
        if self.web is None:
            return []
        return children_of(self.web.pid)

    def worker_child_pids(self) -> list[int]:
        """The Celery worker's pool processes."""
        if self.worker is None:
            return []
        return children_of(self.worker.pid)


def timeouts_applied(metrics: dict[str, float]) -> int:
    return int(metrics.get("uno_game_timeouts_total", 0.0))


# --- Django, in this process: players with tokens, and the final checks --------------------------


def setup_django(stack: Stack) -> None:
    harness.setup_django(stack.env())


def make_tokens(count: int) -> list[str]:
    """Players of this run (names of their own: a database may serve several runs)."""
    return harness.make_tokens(count, f"load{uuid.uuid4().hex[:6]}")


# --- figures --------------------------------------------------------------------------------------


class Stats:
    """Latencies by kind of request, answers by (kind, status, code), schedule lag."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {}
        self.answers: Counter[tuple[str, str, str]] = Counter()
        self.lags: list[float] = []
        self.events: Counter[str] = Counter()
        self.timeline: list[tuple[float, str, bool]] = []  # (monotonic, kind, answered 2xx)

    def record(self, kind: str, status: int | str, code: str, latency: float | None) -> None:
        with self.lock:
            if latency is not None:
                self.latencies.setdefault(kind, []).append(latency)
            self.answers[(kind, str(status), code)] += 1
            self.timeline.append((time.monotonic(), kind, str(status).startswith("2")))

    def lag(self, seconds: float) -> None:
        with self.lock:
            self.lags.append(seconds)

    def note(self, what: str, count: int = 1) -> None:
        with self.lock:
            self.events[what] += count

    def errors(self) -> Counter[str]:
        """Every answer that is not a 2xx, by "kind status code"."""
        out: Counter[str] = Counter()
        for (kind, status, code), count in self.answers.items():
            if not status.startswith("2"):
                out[f"{kind} {status} {code}"] += count
        return out


@dataclass
class Figures:
    games: int
    seconds: float
    actions: int
    actions_per_second: float
    requests_per_second: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    lag_p95_ms: float
    errors: dict[str, int]
    desyncs: int
    games_started: int
    games_finished: int
    timeouts_seen: int

    def passes(self) -> bool:
        return (
            self.p99_ms < P99_LIMIT * 1000
            and not self.errors
            and self.desyncs == 0
            and self.lag_p95_ms < LAG_LIMIT * 1000
        )

    def line(self) -> str:
        errors = sum(self.errors.values())
        return (
            f"{self.games:>5} games {self.actions:>7} actions {self.actions_per_second:>7.1f}/s "
            f"(all requests {self.requests_per_second:>6.1f}/s)  p50 {self.p50_ms:>6.1f} "
            f"p95 {self.p95_ms:>6.1f} p99 {self.p99_ms:>7.1f} max {self.max_ms:>7.1f} ms  "
            f"lag p95 {self.lag_p95_ms:>6.1f} ms  errors {errors} desyncs {self.desyncs}  "
            f"games started {self.games_started} finished {self.games_finished}  "
            f"timeouts {self.timeouts_seen}  {'PASS' if self.passes() else 'FAIL'}"
        )


# --- bots -----------------------------------------------------------------------------------------


@dataclass
class Table(Mirror):
    """A game a bot plays, folded locally (``Mirror``), and what the bot knows about its turns."""

    short: bool
    sleepy: int | None  # the seat that lets turns run out (short games only)
    deadline: float | None = None  # epoch seconds of the current turn's deadline
    parked: bool = False  # waiting for the server to play the sleepy seat's turn
    checks: int = 0
    # An action whose answer never came (a connection dropped, a 5xx): (seat, action).
    in_doubt: tuple[int, dict[str, Any]] | None = None
    desynced: str | None = None


class Unavailable(Exception):
    """No answer, or a 5xx: the service could not answer now; try again later."""


def deadline_of(body: Any) -> float | None:
    rnd = body.get("round") if isinstance(body, dict) else None
    stamp = rnd.get("turn_deadline") if isinstance(rnd, dict) else None
    return datetime.fromisoformat(stamp).timestamp() if stamp else None


def fold_to(
    state: engine.GameState,
    version: int,
    target: int,
    check: Callable[[engine.GameState], bool],
    action: tuple[int, dict[str, Any]] | None = None,
    limit: int = 60,
) -> tuple[engine.GameState, int, bool] | None:
    """How the server got from ``version`` to ``target``: timeouts only, or timeouts, then
    ``action``, then timeouts. Returns the state, the version and whether the action is in it."""

    def timeouts(s: engine.GameState, v: int) -> Iterator[tuple[engine.GameState, int]]:
        yield s, v
        for _ in range(limit):
            if v >= target or s.status != "active":
                return
            events, s = engine.time_out(s)
            v += len(events)
            yield s, v

    prefixes = list(timeouts(state, version))
    for s, v in prefixes:
        if v == target and check(s):
            return s, v, False
    if action is not None:
        seat, body = action
        for s, v in prefixes:
            if v >= target:
                break
            try:
                events, after = engine.act(s, seat, body)
            except engine.IllegalMove:
                continue
            for s2, v2 in timeouts(after, v + len(events)):
                if v2 == target and check(s2):
                    return s2, v2, True
    return None


class Driver:
    """Plays the games of many slots from a pool of client threads.

    ``retries``: an action whose answer is lost (no answer, or a 5xx) is sent again with the same
    ``Idempotency-Key`` up to that many times; then the client reads the game to settle it.
    """

    def __init__(
        self,
        port: int,
        tokens: list[str],
        *,
        think: float,
        idle_fraction: float,
        seed: int,
        retries: int = 0,
        retry_pause: float = 0.5,
        stats: Stats | None = None,
    ) -> None:
        self.port = port
        self.tokens = tokens
        self.think = think
        self.idle_fraction = idle_fraction
        self.seed = seed
        self.retries = retries
        self.retry_pause = retry_pause
        self.stats = stats or Stats()
        self.tables: list[Table] = []
        self.tables_lock = threading.Lock()
        self.heap: list[tuple[float, int, int]] = []
        self.cond = threading.Condition()
        self.stopping = False
        self.slots: dict[int, Table | None] = {}
        self.counter = 0

    # scheduling

    def push(self, slot: int, due: float) -> None:
        with self.cond:
            self.counter += 1
            heapq.heappush(self.heap, (due, self.counter, slot))
            self.cond.notify()

    def pop(self) -> tuple[int, float] | None:
        with self.cond:
            while not self.stopping:
                now = time.monotonic()
                if self.heap and self.heap[0][0] <= now:
                    due, _, slot = heapq.heappop(self.heap)
                    return slot, due
                wait = self.heap[0][0] - now if self.heap else 0.1
                self.cond.wait(timeout=min(max(wait, 0.001), 0.1))
            return None

    def start(self, games: int, clients: int) -> list[threading.Thread]:
        for slot in range(games):
            self.slots[slot] = None
            self.push(slot, time.monotonic() + random.Random(slot).random() * self.think)
        threads = [
            threading.Thread(target=self.client, args=(i,), daemon=True) for i in range(clients)
        ]
        for thread in threads:
            thread.start()
        return threads

    def stop(self, threads: list[threading.Thread]) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        for thread in threads:
            thread.join(timeout=90)

    def run(self, games: int, seconds: float, clients: int) -> None:
        """Keep ``games`` games in play for ``seconds``."""
        threads = self.start(games, clients)
        time.sleep(seconds)
        self.stop(threads)

    def client(self, index: int) -> None:
        web = Client(self.port)
        rng = random.Random(self.seed * 1_000_003 + index)
        while True:
            item = self.pop()
            if item is None:
                return
            slot, due = item
            self.stats.lag(max(0.0, time.monotonic() - due))
            try:
                nxt = self.step(slot, web, rng)
            except Unavailable:
                nxt = time.monotonic() + self.retry_pause
            if nxt is not None:
                self.push(slot, nxt)

    def think_time(self, rng: random.Random, table: Table | None) -> float:
        seconds = self.think * rng.uniform(0.5, 1.5)
        if table is not None and table.short:
            seconds = min(seconds, SHORT_TIMEOUT / 4)
        return time.monotonic() + seconds

    # one step of a slot

    def step(self, slot: int, web: Client, rng: random.Random) -> float | None:
        table = self.slots[slot]
        if table is None or table.desynced or table.state.status != "active":
            table = self.new_table(web, rng)
            self.slots[slot] = table
            return self.think_time(rng, table) if table is not None else time.monotonic() + 1
        if table.in_doubt is not None:
            self.settle(table, web)
            return time.monotonic() + 0.05
        if table.parked:
            return self.look_for_timeout(table, web)
        seat = table.state.actor
        if table.short and seat == table.sleepy and rng.random() < 0.5:
            table.parked = True
            table.checks = 0
            return self.wake_time(table)
        self.act(table, seat, web, rng)
        return self.think_time(rng, table)

    def wake_time(self, table: Table) -> float:
        wait = (table.deadline or time.time()) + GRACE - time.time()
        return time.monotonic() + max(0.05, wait)

    def new_table(self, web: Client, rng: random.Random) -> Table | None:
        players = rng.choice([2, 2, 3, 4])
        tokens = rng.sample(self.tokens, players)
        short = rng.random() < self.idle_fraction
        rules = rng.choice(RULE_SETS)
        target = rng.choice([1, 1, 1, 100])
        max_timeouts = 2 if short else 3
        seed = rng.randrange(2**62)
        settings = {
            "max_players": players,
            "target_score": target,
            "turn_timeout": SHORT_TIMEOUT if short else LONG_TIMEOUT,
            "max_timeouts": max_timeouts,
            "rules": rules,
            "seed": seed,
        }
        body = self.timed("lobby", web, "POST", f"{API}/games/", tokens[0], settings, 201)
        if body is None:
            return None
        game_id = body["id"]
        for token in tokens[1:]:
            body = self.timed("lobby", web, "POST", f"{API}/games/{game_id}/join/", token)
            if body is None:
                self.stats.note("lobby abandoned")
                return None
        state, version = fold_start(players, settings)
        table = Table(
            id=game_id,
            tokens=tokens,
            state=state,
            version=version,
            short=short,
            sleepy=players - 1 if short else None,
            deadline=deadline_of(body),
        )
        if body["status"] != "active" or body["version"] != table.version:
            table.desynced = "start"
            self.stats.note("desync start")
        with self.tables_lock:
            self.tables.append(table)
        self.stats.note("games started")
        return table

    def timed(
        self,
        kind: str,
        web: Client,
        method: str,
        path: str,
        token: str,
        body: Any = None,
        expect: int = 200,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """The answer's body when its status is ``expect``; None for a 4xx; raises Unavailable
        for no answer or a 5xx. Every outcome is counted."""
        started = time.perf_counter()
        try:
            status, answer = web.call(method, path, token, body, headers)
        except NoAnswer as error:
            self.stats.record(kind, "no answer", type(error).__name__, None)
            raise Unavailable(type(error).__name__) from None
        latency = time.perf_counter() - started
        code = answer.get("code", "") if isinstance(answer, dict) and status >= 400 else ""
        self.stats.record(kind, status, str(code), latency)
        if status >= 500:
            raise Unavailable(f"{status} {code}")
        return answer if status == expect else None

    def act(self, table: Table, seat: int, web: Client, rng: random.Random) -> None:
        action = choose(rng, engine.legal_actions(table.state, seat), prefer_play=PREFER_PLAY)
        key = uuid.uuid4().hex if self.retries or rng.random() < 0.2 else None
        headers = {"Idempotency-Key": key} if key else None
        path = f"{API}/games/{table.id}/actions/"
        token = table.tokens[seat]
        lost = 0
        while True:
            try:
                body = self.timed("action", web, "POST", path, token, action, 200, headers)
                break
            except Unavailable:
                lost += 1
                self.stats.note("action answers lost")
                if lost > (self.retries if key else 0):
                    table.in_doubt = (seat, action)
                    self.stats.note("actions in doubt")
                    return
                time.sleep(self.retry_pause)
        if lost:
            self.stats.note("actions answered after a retry")
        if body is None:
            # Refused. In a short game the server may have played this seat's turn first (the
            # bot was late): read the game and fold the timeouts. Elsewhere it is a bug.
            self.resync(table, web, seat)
            return
        hand = sorted(body["you"]["hand"])
        found = fold_to(
            table.state,
            table.version,
            body["version"],
            lambda s: sorted(s.hands[seat]) == hand,
            (seat, action),
        )
        if found is None or not found[2]:
            table.desynced = "action"
            self.stats.note("desync action")
            return
        if found[1] != table.version + len(engine.decide(table.state, seat, action)):
            self.stats.note("timeouts before an action")
        table.state, table.version = found[0], found[1]
        table.deadline = deadline_of(body)
        self.finished(table)

    def settle(self, table: Table, web: Client) -> None:
        """An action's answer was lost: read the game; the action is in the log whole or not at
        all (and then it is simply not done)."""
        assert table.in_doubt is not None
        seat = table.in_doubt[0]
        body = self.timed("read", web, "GET", f"{API}/games/{table.id}/", table.tokens[seat])
        if body is None:
            table.desynced = "read"
            self.stats.note("desync read")
            return
        hand = sorted(body["you"]["hand"]) if body.get("you") else []
        found = fold_to(
            table.state,
            table.version,
            body["version"],
            lambda s: sorted(s.hands[seat]) == hand,
            table.in_doubt,
        )
        table.in_doubt = None
        if found is None:
            table.desynced = "in doubt"
            self.stats.note("desync in doubt")
            return
        self.stats.note("in-doubt actions found applied" if found[2] else "in-doubt actions absent")
        table.state, table.version = found[0], found[1]
        table.deadline = deadline_of(body)
        self.finished(table)

    def finished(self, table: Table) -> None:
        if table.state.status == "finished":
            self.stats.note("games finished")

    def look_for_timeout(self, table: Table, web: Client) -> float:
        """After the sleepy seat's deadline: has the server played its turn yet?"""
        table.checks += 1
        if self.resync(table, web, table.state.actor, quiet=True):
            table.parked = False
            return time.monotonic() + 0.05
        if table.checks > 20:
            table.desynced = "timeout never applied"
            self.stats.note("desync timeout never applied")
            return time.monotonic()
        return time.monotonic() + 0.5

    def resync(self, table: Table, web: Client, seat: int, quiet: bool = False) -> bool:
        """Read the game as ``seat`` and fold timeouts up to its version; True if it moved."""
        body = self.timed("read", web, "GET", f"{API}/games/{table.id}/", table.tokens[seat])
        if body is None:
            table.desynced = "read"
            self.stats.note("desync read")
            return False
        hand = sorted(body["you"]["hand"]) if body.get("you") else []
        found = fold_to(
            table.state, table.version, body["version"], lambda s: sorted(s.hands[seat]) == hand
        )
        if found is None:
            table.desynced = "timeout"
            self.stats.note("desync timeout")
            return False
        moved = found[1] != table.version
        if not moved and not quiet:
            table.desynced = "refused"
            self.stats.note("desync refused")
        self.stats.note("timeouts seen", count_timeouts(table.state, found[1] - table.version))
        table.state, table.version = found[0], found[1]
        table.deadline = deadline_of(body)
        self.finished(table)
        return moved

    def figures(self, games: int, seconds: float) -> Figures:
        stats = self.stats
        actions = stats.latencies.get("action", [])
        everything = [x for kind in stats.latencies.values() for x in kind]
        return Figures(
            games=games,
            seconds=seconds,
            actions=len(actions),
            actions_per_second=len(actions) / seconds,
            requests_per_second=len(everything) / seconds,
            p50_ms=percentile(actions, 0.50) * 1000,
            p95_ms=percentile(actions, 0.95) * 1000,
            p99_ms=percentile(actions, 0.99) * 1000,
            max_ms=max(actions, default=0.0) * 1000,
            lag_p95_ms=percentile(stats.lags, 0.95) * 1000,
            errors=dict(stats.errors()),
            desyncs=sum(n for k, n in stats.events.items() if k.startswith("desync")),
            games_started=stats.events["games started"],
            games_finished=stats.events["games finished"],
            timeouts_seen=stats.events["timeouts seen"],
        )


def count_timeouts(state: engine.GameState, events: int) -> int:
    """How many timeouts it took the server to move ``state`` forward by ``events`` events."""
    count = 0
    while events > 0 and state.status == "active":
        emitted, state = engine.time_out(state)
        events -= len(emitted)
        count += 1
    return count


# --- the final checks -----------------------------------------------------------------------------


@dataclass
class CheckResult:
    games: int = 0
    finished: int = 0
    active: int = 0
    events: int = 0
    gaps: list[str] = field(default_factory=list)
    rebuild_differs: list[str] = field(default_factory=list)
    card_count: list[str] = field(default_factory=list)
    replay_differs: list[str] = field(default_factory=list)
    mirror_differs: list[str] = field(default_factory=list)
    http_replays: int = 0
    timed_out_events: int = 0
    timeout_forfeits: int = 0

    def ok(self) -> bool:
        return not (
            self.gaps
            or self.rebuild_differs
            or self.card_count
            or self.replay_differs
            or self.mirror_differs
        )

    def lines(self) -> list[str]:
        return [
            f"games {self.games} (finished {self.finished}, active {self.active}), "
            f"events {self.events}, timed_out events {self.timed_out_events}, "
            f"forfeits by timeout {self.timeout_forfeits}",
            f"log gaps: {len(self.gaps)} {self.gaps[:3]}",
            f"projection != rebuild: {len(self.rebuild_differs)} {self.rebuild_differs[:3]}",
            f"states not holding 108 cards: {len(self.card_count)} {self.card_count[:3]}",
            f"finished games not replaying to their final state: {len(self.replay_differs)} "
            f"{self.replay_differs[:3]} (HTTP replays checked: {self.http_replays})",
            f"client fold != server log: {len(self.mirror_differs)} {self.mirror_differs[:3]}",
            "CHECKS PASS" if self.ok() else "CHECKS FAIL",
        ]


def card_total(state: engine.GameState) -> int:
    return sum(len(h) for h in state.hands) + len(state.draw_pile) + len(state.discard_pile)


def check_games(
    tables: list[Table], port: int | None = None, http_sample: int = 100
) -> CheckResult:
    """Every game in the database (run with the worker stopped, so nothing moves meanwhile)."""
    from games.engine.snapshot import state_from_data
    from games.models import Event, Game, GameStatus
    from games.projections import rebuild_game

    result = CheckResult()
    mirrors = {t.id: t for t in tables if t.desynced is None}
    web = Client(port) if port else None
    games = Game.objects.exclude(status__in=[GameStatus.WAITING, GameStatus.ABANDONED])
    for pk in list(games.order_by("created_at").values_list("pk", flat=True)):
        game = Game.objects.get(pk=pk)
        result.games += 1
        gid = str(game.pk)
        rows = list(
            Event.objects.filter(game=game).order_by("seq").values("seq", "type", "seat", "data")
        )
        result.events += len(rows)
        if [r["seq"] for r in rows] != list(range(1, len(rows) + 1)) or game.version != len(rows):
            result.gaps.append(gid)
            continue
        state: engine.GameState | None = None
        mirror = mirrors.get(gid)
        for row in rows:
            state = engine.apply(
                state, {"type": row["type"], "seat": row["seat"], "data": row["data"]}
            )
            if state.round_number > 0 and card_total(state) != 108:
                result.card_count.append(f"{gid}#{row['seq']}")
                break
            if mirror is not None and row["seq"] == mirror.version and state != mirror.state:
                result.mirror_differs.append(gid)
            if row["type"] == "timed_out":
                result.timed_out_events += 1
            if row["type"] == "forfeited" and row["data"].get("reason") == "timeout":
                result.timeout_forfeits += 1
        if rebuild_game(game):
            result.rebuild_differs.append(gid)
        assert state is not None
        if game.status == GameStatus.FINISHED:
            result.finished += 1
            final = state_from_data(game.state) if game.state is not None else None
            if state.status != "finished" or final != state or game.winner_seat != state.winner:
                result.replay_differs.append(gid)
            elif web is not None and mirror is not None and result.http_replays < http_sample:
                result.http_replays += 1
                status, body = web.call(
                    "GET", f"{API}/games/{gid}/replay/?at={game.version}", mirror.tokens[0]
                )
                if (
                    status != 200
                    or body["status"] != "finished"
                    or body["winner_seat"] != state.winner
                    or [s["score"] for s in body["seats"]] != list(state.scores)
                ):
                    result.replay_differs.append(f"{gid} (HTTP {status})")
        else:
            result.active += 1
    return result


# --- running it -----------------------------------------------------------------------------------


@contextlib.contextmanager
def running_stack(config: StackConfig) -> Iterator[Stack]:
    stack = Stack(config)
    stack.prepare_database()
    setup_django(stack)
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


def clients_for(games: int, think: float) -> int:
    """Enough client threads that the bots, not the threads, set the pace."""
    return max(8, min(192, int(games / think / 4) + 8))


def run_level(
    stack: Stack,
    tokens: list[str],
    games: int,
    seconds: float,
    args: argparse.Namespace,
    tables: list[Table],
    say: Callable[[str], None],
) -> Figures:
    driver = Driver(
        stack.config.port,
        tokens,
        think=args.think,
        idle_fraction=args.idle_fraction,
        seed=args.seed + games,
    )
    clients = args.clients or clients_for(games, args.think)
    driver.run(games, seconds, clients)
    tables.extend(driver.tables)
    figures = driver.figures(games, seconds)
    say(figures.line())
    if figures.errors:
        say(f"      errors: {dict(sorted(figures.errors.items()))}")
    notes = {k: v for k, v in driver.stats.events.items() if k.startswith("desync")}
    if notes:
        say(f"      desyncs: {notes}")
    return figures


def search(
    stack: Stack, tokens: list[str], args: argparse.Namespace, tables: list[Table], say: Any
) -> tuple[int, list[Figures]]:
    """Double the games until a level fails, then bisect twice; the largest level that passed."""
    results: list[Figures] = []
    best, failed = 0, 0
    games = args.start
    while games <= args.max_games:
        figures = run_level(stack, tokens, games, args.seconds, args, tables, say)
        results.append(figures)
        if not figures.passes():
            failed = games
            break
        best = games
        games *= 2
    for _ in range(args.refine if failed else 0):
        middle = (best + failed) // 2
        if middle in (best, failed) or failed - best < max(4, best // 10):
            break
        figures = run_level(stack, tokens, middle, args.seconds, args, tables, say)
        results.append(figures)
        if figures.passes():
            best = middle
        else:
            failed = middle
    return best, results


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games in play at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of a run (a level)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--idle-fraction", type=float, default=0.2)
    parser.add_argument("--clients", type=int, default=0, help="client threads (0: by games)")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--web-threads", type=int, default=8)
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", action="store_true", help="find the largest passing --games")
    parser.add_argument("--start", type=int, default=25, help="--search: the first level")
    parser.add_argument("--max-games", type=int, default=3200, help="--search: the last level")
    parser.add_argument("--refine", type=int, default=2, help="--search: bisection steps")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    config = StackConfig(
        web_workers=args.web_workers,
        web_threads=args.web_threads,
        worker_concurrency=args.worker_concurrency,
    )
    lines: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    with running_stack(config) as stack:
        say(
            f"load: gunicorn {config.web_workers}x{config.web_threads} threads, celery worker "
            f"x{config.worker_concurrency} + beat, PostgreSQL {config.db_name}, "
            f"{os.cpu_count()} cores, think {args.think} s, idle fraction {args.idle_fraction}, "
            f"{args.seconds:.0f} s per run"
        )
        tokens = make_tokens(400)
        tables: list[Table] = []
        before_worker = timeouts_applied(stack.worker_metrics())
        started = time.monotonic()
        if args.search:
            best, results = search(stack, tokens, args, tables, say)
            say(
                f"largest number of concurrent games with action p99 < {P99_LIMIT * 1000:.0f} ms, "
                f"no errors and bots on schedule: {best}"
            )
        else:
            results = [run_level(stack, tokens, args.games, args.seconds, args, tables, say)]
            best = args.games if results[0].passes() else 0
        # Let the last deadlines fire, then stop the timers so nothing moves during the checks.
        time.sleep(SHORT_TIMEOUT + 2 * config.sweep_interval + GRACE)
        worker_timeouts = timeouts_applied(stack.worker_metrics()) - before_worker
        web_timeouts = timeouts_applied(stack.web_metrics())
        stack.stop_beat()
        stack.stop_worker()
        say(
            f"timeouts applied: {worker_timeouts} by the Celery worker (deadline tasks and "
            f"sweeps), {web_timeouts} by web processes (the lazy path on reads and writes)"
        )
        checked = check_games(tables, stack.config.port)
        for line in checked.lines():
            say(line)
        say(f"total wall time {time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "levels": [f.__dict__ for f in results],
                    "best": best,
                    "checks": checked.__dict__,
                    "worker_timeouts": worker_timeouts,
                    "web_timeouts": web_timeouts,
                    "lines": lines,
                },
                indent=2,
                default=str,
            )
        )
    if not checked.ok():
        sys.exit(1)


if __name__ == "__main__":
    main()
