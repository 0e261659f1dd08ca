"""Faults: scripted runs that break the service's parts under load and check what is left.

Run ``.venv/bin/python bench/faults.py`` (every scenario) or ``--only web,pg,broker,worker``.
Each scenario starts the stack of ``bench/load.py`` (gunicorn, a Celery worker, Celery beat) on a
database of its own (``unoservice_faults``), breaks one part, and checks afterwards:

- ``web``: a gunicorn worker is SIGKILLed every few seconds while bots play. Every action whose
  answer was lost is settled by reading the game: it must be in the log whole (every event of it,
  the projections with it) or not at all. Then the checks of ``bench/load.py`` (no gaps, the
  projections equal a rebuild from the log, 108 cards, replays, the bots' folds equal the log).
- ``pg``: PostgreSQL is restarted (``pg_ctlcluster … restart``) while bots play. Requests fail
  cleanly while it is down (a 503 with a ``code``, or no answer), the same processes serve again
  once it is back (no restart), bots retry lost actions with the same ``Idempotency-Key`` (each
  acts once), and nothing is corrupted. Note: this restarts the machine's shared cluster; other
  suites running at that moment see their connections dropped for a second or two.
- ``broker``: games nobody plays (2 s turns) are timed out by the worker; the broker (a Redis of
  this run's own, on its own port) is shut down without saving (``redis-cli shutdown nosave``:
  every queued deadline task is lost) and started again 10 s later. The beat sweep catches up.
- ``slow`` (a probe, issue 11): sixteen connections send headers and half a body, then nothing;
  how long ``/healthz`` waits, against gunicorn alone and against docker/nginx.conf in front of
  it (bench/frontend.py; the deployed 2 workers of 8 threads, no database needed).
- ``longpoll`` (a probe, issue 11): one player sends sixteen ``events/?wait=4`` at once, then
  twelve players one ``wait=10`` each; how many are held and how many refused (429), how long
  another player's game view and ``/healthz`` wait meanwhile, and how many PostgreSQL sessions
  one 5 s poll opens (``pg_stat_database.sessions``), with ``DATABASE_CONN_MAX_AGE=0``.
- ``worker``: the same idle games; the worker's pool processes are SIGKILLed at random moments
  (tasks die mid-flight: acks_late and reject-on-worker-lost redeliver them), then the whole
  worker is SIGKILLed and started again (its reserved tasks stay unacked; the sweep covers them).

For ``broker`` and ``worker`` the check is the pacing of timeouts: the n-th timeout of a game acts
on the deadline ``d_n`` (the first is set when the game starts; each timeout that changes the turn
sets the next to ``d_n + turn_timeout``), so from the log alone: no timeout was applied before its
deadline (a second application of one would act on the next turn early), the game's deadline is the
one the log predicts, and at the end no game is overdue by more than a sweep (none was lost).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.frontend import healthz_wait, running, slow_clients  # noqa: E402
from bench.harness import API, HOST, Client, free_port, percentile  # noqa: E402
from bench.load import (  # noqa: E402
    CheckResult,
    Driver,
    Stack,
    StackConfig,
    Unavailable,
    check_games,
    make_tokens,
    setup_django,
)

IDLE_TIMEOUT = 2  # seconds: turns of the idle games
SLACK = 4.0  # seconds a deadline may stay unserved at the end: a sweep interval and a task


@dataclass
class Outcome:
    name: str
    lines: list[str] = field(default_factory=list)
    ok: bool = True
    figures: dict[str, Any] = field(default_factory=dict)

    def say(self, line: str) -> None:
        print(f"[{self.name}] {line}", flush=True)
        self.lines.append(line)

    def expect(self, condition: bool, what: str) -> None:
        self.say(f"{'ok  ' if condition else 'FAIL'} {what}")
        self.ok = self.ok and condition


class FaultStack(Stack):
    """The stack of bench/load.py, and for the broker scenario a Redis of its own."""

    redis: PrivateRedis | None = None


# --- helpers --------------------------------------------------------------------------------------


def pg_restart() -> float:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    started = time.monotonic()
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"],
        check=True,
        timeout=120,
    )
    return time.monotonic() - started


class Probe:
    """Polls /readyz and /healthz every quarter second; records each answer."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answers: list[tuple[float, str, int]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stopping.is_set():
            for path in ("/readyz", "/healthz"):
                status = 0
                try:
                    url = f"http://{HOST}:{self.port}{path}"
                    with urllib.request.urlopen(url, timeout=3) as answer:
                        status = answer.status
                except urllib.error.HTTPError as error:
                    status = error.code
                except OSError:
                    status = 0
                self.answers.append((time.monotonic(), path, status))
            self.stopping.wait(0.25)

    def __enter__(self) -> Probe:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)

    def summary(self, path: str) -> str:
        seen = Counter(status for _, p, status in self.answers if p == path)
        return ", ".join(f"{status or 'no answer'}: {n}" for status, n in sorted(seen.items()))


def settle_all(driver: Driver, port: int, rounds: int = 10) -> None:
    """After the bots stopped: settle every action still in doubt (bounded retries)."""
    web = Client(port)
    for _ in range(rounds):
        pending = [t for t in driver.tables if t.in_doubt is not None and not t.desynced]
        if not pending:
            return
        for table in pending:
            with contextlib.suppress(Unavailable):
                driver.settle(table, web)
        time.sleep(0.5)


def report_driver(out: Outcome, driver: Driver, seconds: float) -> None:
    figures = driver.figures(len(driver.slots), seconds)
    out.say(figures.line().replace("PASS", "").replace("FAIL", "").rstrip())
    errors = dict(sorted(figures.errors.items()))
    out.say(f"answers that were not 2xx: {errors or 'none'}")
    notes = dict(sorted(driver.stats.events.items()))
    out.say(f"client notes: {notes}")
    out.figures["driver"] = {**figures.__dict__, "notes": notes}


def report_checks(out: Outcome, checks: CheckResult) -> None:
    for line in checks.lines():
        out.say(line)
    out.expect(checks.ok(), "log, projections, cards, replays and the bots' folds all agree")
    out.figures["checks"] = checks.__dict__


def close_django_connections() -> None:
    from django.db import connections

    connections.close_all()


def stack_pids(stack: Stack) -> list[int]:
    pids = [p.pid for p in (stack.web,) if p is not None]
    return pids + stack.web_worker_pids()


# --- web: a gunicorn worker killed mid-action -----------------------------------------------------


def scenario_web(stack: FaultStack, tokens: list[str], args: argparse.Namespace) -> Outcome:
    out = Outcome("web")
    driver = Driver(stack.config.port, tokens, think=0.3, idle_fraction=0.1, seed=11, retries=0)
    threads = driver.start(args.games, clients=24)
    rng = random.Random(5)
    kills = 0
    began = time.monotonic()
    time.sleep(3)
    for _ in range(args.kills):
        pids = stack.web_worker_pids()
        if pids:
            os.kill(rng.choice(pids), signal.SIGKILL)
            kills += 1
        time.sleep(rng.uniform(1.5, 3.0))
    time.sleep(3)
    driver.stop(threads)
    seconds = time.monotonic() - began
    settle_all(driver, stack.config.port)
    out.say(f"SIGKILLed {kills} gunicorn workers in {seconds:.0f} s of play")
    report_driver(out, driver, seconds)
    notes = driver.stats.events
    lost = notes["actions in doubt"]
    settled = notes["in-doubt actions found applied"] + notes["in-doubt actions absent"]
    out.expect(lost > 0, f"kills cut actions in flight ({lost} answers lost)")
    out.expect(
        settled == lost,
        f"every lost answer settled: {notes['in-doubt actions found applied']} actions in the "
        f"log whole, {notes['in-doubt actions absent']} not at all, none in part",
    )
    desyncs = sum(n for k, n in notes.items() if k.startswith("desync"))
    out.expect(desyncs == 0, f"no bot lost track of its game ({desyncs})")
    stack.stop_beat()
    stack.stop_worker()
    report_checks(out, check_games(driver.tables, stack.config.port))
    return out


# --- pg: PostgreSQL restarted under load ----------------------------------------------------------


def scenario_pg(stack: FaultStack, tokens: list[str], args: argparse.Namespace) -> Outcome:
    out = Outcome("pg")
    driver = Driver(
        stack.config.port,
        tokens,
        think=0.5,
        idle_fraction=0.1,
        seed=13,
        retries=30,
        retry_pause=0.5,
    )
    before = stack_pids(stack)
    with Probe(stack.config.port) as probe:
        threads = driver.start(args.games, clients=24)
        began = time.monotonic()
        time.sleep(8)
        down_at = time.monotonic()
        took = pg_restart()
        up_at = time.monotonic()
        time.sleep(20)
        driver.stop(threads)
        seconds = time.monotonic() - began
    close_django_connections()
    settle_all(driver, stack.config.port)
    out.say(
        f"PostgreSQL restarted {down_at - began:.1f} s into the run; the restart took {took:.1f} s"
    )
    report_driver(out, driver, seconds)
    timeline = driver.stats.timeline
    failed = [t for t, _, answered in timeline if not answered]
    bad = {
        f"{kind} {status} {code}": n
        for (kind, status, code), n in driver.stats.answers.items()
        if status.startswith("5")
    }
    out.say(f"5xx answers: {bad or 'none'}")
    out.expect(
        all(not key.endswith(" ") for key in bad),
        "every 5xx carries an error code (no HTML page, no bare 500)",
    )
    if failed:
        out.say(
            f"{len(failed)} requests failed, from {failed[0] - down_at:.1f} s to "
            f"{failed[-1] - down_at:.1f} s after the restart began (it took {took:.1f} s)"
        )
    late = [t for t, _, answered in timeline if answered and t > up_at + 5]
    after = [t for t in failed if t > up_at + 5]
    out.expect(
        bool(late) and not after,
        f"the same processes serve again: {len(late)} answers and {len(after)} failures from 5 s "
        "after the restart",
    )
    out.expect(stack_pids(stack) == before, "no web process was restarted")
    out.say(f"/readyz during the run: {probe.summary('/readyz')}")
    out.say(f"/healthz during the run: {probe.summary('/healthz')}")
    notes = driver.stats.events
    out.expect(
        notes["actions in doubt"]
        == notes["in-doubt actions found applied"] + notes["in-doubt actions absent"],
        f"actions retried with their Idempotency-Key: {notes['actions answered after a retry']} "
        f"answered after a retry, {notes['actions in doubt']} left in doubt and settled",
    )
    desyncs = sum(n for k, n in notes.items() if k.startswith("desync"))
    out.expect(desyncs == 0, f"no bot lost track of its game ({desyncs})")
    out.figures["pg"] = {"restart_seconds": took, "readyz": probe.summary("/readyz")}
    stack.stop_beat()
    stack.stop_worker()
    report_checks(out, check_games(driver.tables, stack.config.port))
    return out


# --- idle games for the timer scenarios -----------------------------------------------------------


@dataclass
class IdleGame:
    id: str
    first_deadline: datetime


def idle_games(stack: Stack, tokens: list[str], count: int) -> list[IdleGame]:
    """2-player games nobody plays: every turn is timed out, 100 in a row before a forfeit."""
    web = Client(stack.config.port)
    games = []
    for i in range(count):
        a, b = tokens[2 * i], tokens[2 * i + 1]
        settings = {"max_players": 2, "turn_timeout": IDLE_TIMEOUT, "max_timeouts": 100}
        status, body = web.call("POST", f"{API}/games/", a, settings)
        assert status == 201, body
        status, body = web.call("POST", f"{API}/games/{body['id']}/join/", b)
        assert status == 200 and body["status"] == "active", body
        stamp = body["round"]["turn_deadline"]
        games.append(IdleGame(body["id"], datetime.fromisoformat(stamp)))
    return games


@dataclass
class Pacing:
    games: int = 0
    timeouts: int = 0
    early: list[str] = field(default_factory=list)
    deadline_mismatch: list[str] = field(default_factory=list)
    overdue: list[str] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)

    def ok(self) -> bool:
        return not (self.early or self.deadline_mismatch or self.overdue)


def check_pacing(games: list[IdleGame], frozen_at: datetime) -> Pacing:
    """From each log: every timeout acted on or after its deadline, the game's deadline is the
    one the log predicts, and none is overdue by more than SLACK at ``frozen_at``."""
    from games.models import Event, Game

    result = Pacing()
    step = timedelta(seconds=IDLE_TIMEOUT)
    tolerance = timedelta(milliseconds=50)
    for idle in games:
        game = Game.objects.get(pk=idle.id)
        result.games += 1
        rows = list(Event.objects.filter(game=game).order_by("seq"))
        deadline = idle.first_deadline
        index = 0
        while index < len(rows):
            row = rows[index]
            if row.type != "timed_out":
                index += 1
                continue
            result.timeouts += 1
            if row.created_at + tolerance < deadline:
                result.early.append(f"{idle.id}#{row.seq}")
            result.lateness.append((row.created_at - deadline).total_seconds())
            index += 1
            changed = False
            while index < len(rows) and rows[index].type != "timed_out":
                changed = changed or rows[index].type == "turn_changed"
                index += 1
            if changed:
                deadline += step
        if game.status == "active":
            if game.turn_deadline != deadline:
                result.deadline_mismatch.append(f"{idle.id}: {game.turn_deadline} != {deadline}")
            if game.turn_deadline is not None and game.turn_deadline < frozen_at - timedelta(
                seconds=SLACK
            ):
                result.overdue.append(idle.id)
    return result


def report_pacing(out: Outcome, pacing: Pacing) -> None:
    late = pacing.lateness
    out.say(
        f"{pacing.games} idle games, {pacing.timeouts} timeouts; lateness after the deadline "
        f"p50 {percentile(late, 0.5):.2f} s, p99 {percentile(late, 0.99):.2f} s, "
        f"max {max(late, default=0.0):.2f} s"
    )
    out.expect(not pacing.early, f"no timeout applied before its deadline ({len(pacing.early)})")
    out.expect(
        not pacing.deadline_mismatch,
        f"every game's deadline is the one its log predicts ({len(pacing.deadline_mismatch)})",
    )
    out.expect(
        not pacing.overdue, f"no game overdue by more than {SLACK:.0f} s ({len(pacing.overdue)})"
    )
    out.figures["pacing"] = {
        "games": pacing.games,
        "timeouts": pacing.timeouts,
        "lateness_p50": percentile(late, 0.5),
        "lateness_p99": percentile(late, 0.99),
        "lateness_max": max(late, default=0.0),
        "early": pacing.early,
        "deadline_mismatch": pacing.deadline_mismatch,
        "overdue": pacing.overdue,
    }


def now_utc() -> datetime:
    from django.utils import timezone

    return timezone.now()


# --- broker: stopped and started ------------------------------------------------------------------


class PrivateRedis:
    """A Redis server of this run's own, on a loopback port: stopping it disturbs nobody."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port = port
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.workdir / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ping = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, timeout=5
            )
            if ping.stdout.strip() == b"PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("the private Redis did not start")

    def shutdown_nosave(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
            capture_output=True,
            timeout=10,
        )
        if self.process is not None:
            self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.shutdown_nosave()


class Supervisor:
    """Restarts the Celery worker when it exits, as the compose file's restart policy does."""

    def __init__(self, stack: FaultStack) -> None:
        self.stack = stack
        self.restarts: list[tuple[float, int | None]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stopping.wait(0.5):
            worker = self.stack.worker
            if worker is not None and worker.poll() is not None:
                self.restarts.append((time.monotonic(), worker.returncode))
                time.sleep(1)
                self.stack.start_worker()

    def __enter__(self) -> Supervisor:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


def scenario_broker(stack: FaultStack, tokens: list[str], args: argparse.Namespace) -> Outcome:
    out = Outcome("broker")
    assert stack.redis is not None
    games = idle_games(stack, tokens, args.idle_games)
    driver = Driver(stack.config.port, tokens[200:], think=0.5, idle_fraction=0.5, seed=17)
    supervisor = Supervisor(stack) if args.supervise else None
    with supervisor or contextlib.nullcontext():
        threads = driver.start(10, clients=4)
        time.sleep(8)
        before = len(driver.stats.timeline)
        stopped_at = time.monotonic()
        stack.redis.shutdown_nosave()
        out.say("broker shut down (nosave): every queued and unacked deadline task is gone")
        time.sleep(args.outage)
        during = driver.stats.timeline[before:]
        stack.redis.start()
        out.say(f"broker started again after {args.outage:.0f} s")
        time.sleep(15)
        driver.stop(threads)
    if supervisor is not None:
        for at, code in supervisor.restarts:
            out.say(
                f"the Celery worker exited (status {code}) {at - stopped_at:.1f} s after the "
                "broker went down; restarted (as compose's restart policy would)"
            )
        out.figures["worker_restarts"] = len(supervisor.restarts)
    elif stack.worker is not None and stack.worker.poll() is not None:
        out.say(f"the Celery worker exited (status {stack.worker.returncode}) and stayed down")
    answered = sum(1 for _, kind, ok in during if kind == "action" and ok)
    refused = sum(1 for _, kind, ok in during if kind == "action" and not ok)
    out.expect(
        answered > 0 and refused == 0,
        f"players kept playing while the broker was down: {answered} actions answered, "
        f"{refused} not",
    )
    report_driver(out, driver, 8 + args.outage + 15)
    stack.stop_beat()
    stack.stop_worker()
    close_django_connections()
    report_pacing(out, check_pacing(games, now_utc()))
    report_checks(out, check_games(driver.tables, stack.config.port))
    return out


# --- worker: killed mid-task ----------------------------------------------------------------------


def scenario_worker(stack: FaultStack, tokens: list[str], args: argparse.Namespace) -> Outcome:
    out = Outcome("worker")
    games = idle_games(stack, tokens, args.idle_games)
    rng = random.Random(7)
    time.sleep(4)
    kills = 0
    until = time.monotonic() + 20
    while time.monotonic() < until:
        children = stack.worker_child_pids()
        if children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(rng.choice(children), signal.SIGKILL)
                kills += 1
        time.sleep(rng.uniform(0.2, 0.8))
    out.say(f"SIGKILLed {kills} of the worker's pool processes over 20 s")
    stack.stop_worker(signal.SIGKILL)
    out.say("SIGKILLed the whole worker; starting a new one in 5 s")
    time.sleep(5)
    stack.start_worker()
    stack.wait_worker(60)
    time.sleep(15)
    stack.stop_beat()
    stack.stop_worker()
    log = (stack.workdir / "worker.log").read_text(errors="replace")
    lost = log.count("WorkerLostError")
    killed = log.count("signal 9")
    out.say(
        f"worker log: {killed} pool processes exited with signal 9, {lost} tasks failed with "
        "WorkerLostError (killed mid-task: redelivered)"
    )
    out.expect(killed > 0, "pool processes were killed while the worker ran tasks")
    close_django_connections()
    report_pacing(out, check_pacing(games, now_utc()))
    report_checks(out, check_games([], stack.config.port))
    return out


# --- probes of issue 11: slow clients, long polls ----------------------------------------------


def probe_slow(args: argparse.Namespace) -> Outcome:
    out = Outcome("slow")
    for nginx in (False, True):
        front_name = "nginx + gunicorn" if nginx else "gunicorn alone"
        with running(nginx=nginx, workers=2, threads=8) as front:
            idle = healthz_wait(front.port, 5)
            for count in (args.slow_clients, args.slow_clients * 16):
                with slow_clients(front.port, count):
                    waited = healthz_wait(front.port, args.slow_wait)
                shown = f"{waited * 1000:.0f} ms" if waited is not None else "no answer"
                out.figures[f"{front_name}, {count} slow clients"] = shown
                out.say(
                    f"{front_name}: /healthz {idle and round(idle * 1000)} ms idle, {shown} "
                    f"(within {args.slow_wait:.0f} s) with {count} slow clients"
                )
                if nginx:
                    out.expect(waited is not None, f"nginx answers with {count} slow clients")
    return out


def _call(
    port: int, path: str, token: str | None, body: Any = None, method: str | None = None
) -> tuple[int, Any, float]:
    """One request on a connection of its own: status, JSON body, seconds."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        f"http://{HOST}:{port}{path}", data=data, headers=headers, method=method
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null"), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), time.monotonic() - started
    except OSError:
        return 0, None, time.monotonic() - started


def _sessions(db_name: str) -> int:
    import psycopg

    with psycopg.connect(f"postgres://postgres@{HOST}:5432/postgres", autocommit=True) as pg:
        row = pg.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", [db_name]
        ).fetchone()
    return int(row[0]) if row else 0


def _poll_burst(
    port: int, url: str, pollers: list[str], viewer: str, game_path: str
) -> tuple[Counter[int], list[str]]:
    """``pollers`` long-poll ``url`` at once; meanwhile ``viewer``'s game view and /healthz are
    timed. The polls' statuses, and a line for each of the two."""
    answers: list[int] = []
    threads = [
        threading.Thread(target=lambda t=t: answers.append(_call(port, url, t)[0])) for t in pollers
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # a bench, not a test: let the polls arrive first
    meanwhile = []
    for name, path, token in (("view", game_path, viewer), ("healthz", "/healthz", None)):
        status, _, seconds = _call(port, path, token)
        meanwhile.append(f"{name} {status} in {seconds * 1000:.0f} ms")
    for thread in threads:
        thread.join(timeout=60)
    return Counter(answers), meanwhile


def probe_longpoll(args: argparse.Namespace) -> Outcome:
    out = Outcome("longpoll")
    config = StackConfig(db_name="unoservice_faults", port=free_port(), conn_max_age=0)
    stack = FaultStack(config)
    try:
        stack.prepare_database()
        setup_django(stack)
        close_django_connections()
        stack.start_web()
        tokens = make_tokens(16)
        port = config.port
        status, game, _ = _call(port, f"{API}/games/", tokens[0], {"max_players": 2})
        assert status == 201, (status, game)
        status, view, _ = _call(port, f"{API}/games/{game['id']}/join/", tokens[1], method="POST")
        assert status == 200 and view["status"] == "active", (status, view)
        waiter = 1 - int(view["round"]["current_seat"])
        quiet = f"{API}/games/{game['id']}/events/?after={view['version']}"

        before = _sessions(config.db_name)
        status, _, seconds = _call(port, f"{quiet}&wait=5", tokens[waiter])
        opened = _sessions(config.db_name) - before
        out.figures["sessions opened by one 5 s poll"] = opened
        out.say(f"one wait=5 poll: {status} after {seconds:.1f} s, {opened} PostgreSQL sessions")
        out.expect(opened <= 2, "a waiting poll keeps its session (the old loop: 25)")

        game_path = f"{API}/games/{game['id']}/"
        bursts = [("16 wait=4 polls of one player", f"{quiet}&wait=4", [tokens[waiter]] * 16)]
        bursts.append(("12 wait=10 polls of 12 players", f"{quiet}&wait=10", tokens[2:14]))
        for label, url, pollers in bursts:
            answers, meanwhile = _poll_burst(port, url, pollers, tokens[1 - waiter], game_path)
            out.figures[label] = {"polls": dict(answers), "meanwhile": meanwhile}
            out.say(f"{label}: {dict(answers)}; meanwhile {', '.join(meanwhile)}")
            out.expect(all(" 200 in " in line for line in meanwhile), "others are answered")
        held = out.figures["16 wait=4 polls of one player"]["polls"]
        out.expect(held.get(429, 0) >= 12, "most of one player's polls are refused at once")
    finally:
        stack.stop()
    return out


PROBES: dict[str, Callable[[argparse.Namespace], Outcome]] = {
    "slow": probe_slow,
    "longpoll": probe_longpoll,
}


# --- running them ---------------------------------------------------------------------------------

SCENARIOS: dict[str, Callable[[FaultStack, list[str], argparse.Namespace], Outcome]] = {
    "web": scenario_web,
    "pg": scenario_pg,
    "broker": scenario_broker,
    "worker": scenario_worker,
}


def run(name: str, args: argparse.Namespace) -> Outcome:
    private = name == "broker"
    config = StackConfig(
        db_name="unoservice_faults",
        broker_db=0 if private else 8,
        broker_port=free_port() if private else 6379,
        port=8767,
    )
    stack = FaultStack(config)
    if private:
        stack.redis = PrivateRedis(config.broker_port, stack.workdir)
        stack.redis.start()
    try:
        stack.prepare_database()
        setup_django(stack)
        close_django_connections()
        stack.start()
        tokens = make_tokens(400)
        return SCENARIOS[name](stack, tokens, args)
    finally:
        stack.stop()
        if stack.redis is not None:
            stack.redis.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", default="web,pg,broker,worker,slow,longpoll")
    parser.add_argument("--slow-clients", type=int, default=16, help="slow connections (slow)")
    parser.add_argument(
        "--slow-wait", type=float, default=10.0, help="seconds /healthz may wait (slow)"
    )
    parser.add_argument("--games", type=int, default=40, help="games the bots play (web, pg)")
    parser.add_argument("--kills", type=int, default=8, help="gunicorn workers killed (web)")
    parser.add_argument("--idle-games", type=int, default=40, help="idle games (broker, worker)")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the broker is down")
    parser.add_argument(
        "--no-supervise",
        dest="supervise",
        action="store_false",
        help="broker: do not restart the worker when it exits",
    )
    parser.add_argument("--json", type=Path, help="also write the outcomes here")
    args = parser.parse_args()
    outcomes = []
    for name in args.only.split(","):
        name = name.strip()
        outcomes.append(PROBES[name](args) if name in PROBES else run(name, args))
    print()
    for outcome in outcomes:
        print(f"{outcome.name:<8} {'PASS' if outcome.ok else 'FAIL'}")
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=2, default=str))
    if not all(o.ok for o in outcomes):
        sys.exit(1)


if __name__ == "__main__":
    main()
