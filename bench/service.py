"""Service benchmark: game actions against a trivial endpoint, over HTTP, gunicorn and PostgreSQL.

Run with ``make bench-service`` (or ``.venv/bin/python bench/service.py``). It makes a database of
its own (``unoservice_bench``), starts gunicorn on loopback, and drives it with keep-alive clients
in threads, in rounds of phases, each game phase beside its trivial twin (``--pairs``):

- ``write``: ``POST /bench/trivial/`` (authenticated; locks the caller's row, inserts one row)
  against ``POST /api/v1/games/{id}/actions/`` over many 2-player games, each client playing its
  games with random legal actions. The client folds the same actions through the engine locally
  (it knows the seed), so it always knows who must act and what is legal without extra reads.
- ``read``: ``GET /bench/trivial/`` (authenticated; reads the caller's row) against
  ``GET /api/v1/games/{id}/``, the view of the seat to act (its hand and legal actions).
- ``loop``: a trivial read then a trivial write, against a game view then an action: what a
  client that reads the view before each move does.

Every call carries a session's access token, as clients do. Each phase reports the CPU time per
request of the web server, PostgreSQL and the load generator (from /proc). Then it measures the
latency of one action past the 2,000th event of a game against one near the 20th, and counts the
SQL queries of one action and of one view in-process.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import (  # noqa: E402
    API,
    SERVER,
    Client,
    Mirror,
    answers,
    fold_start,
    gunicorn_argv,
    percentile,
    prepare_database,
    processes,
    service_env,
    setup_django,
    spawn,
    stop,
    wait_until,
)
from games import engine  # noqa: E402
from games.engine.bots import choose  # noqa: E402

# The database and port can be moved (UNO_BENCH_DB, UNO_BENCH_PORT) so two runs never share them.
DB_NAME = os.environ.get("UNO_BENCH_DB", "unoservice_bench")
PORT = int(os.environ.get("UNO_BENCH_PORT", "8765"))
# The servers the API can run under: gunicorn's config module and the application it serves.
SERVERS = {
    "gthread": ("unoservice.gunicorn_conf", "unoservice.wsgi:application"),
    "asgi": ("unoservice.gunicorn_asgi", "unoservice.asgi:application"),
}
GAME_RULES: dict[str, Any] = {}
TARGET_SCORE = 500


def environment() -> dict[str, str]:
    return service_env(
        f"{SERVER}/{DB_NAME}", DJANGO_SETTINGS_MODULE="bench.settings", DJANGO_ALLOWED_HOSTS="*"
    )


def setup_bench() -> None:
    setup_django(environment())
    from django.db import connection

    from bench.urls import TABLES

    with connection.cursor() as cursor:
        cursor.execute(TABLES)


def make_tokens(count: int) -> list[str]:
    """Players with tokens, each with a row of ``bench_counter`` for the trivial endpoint."""
    from django.db import connection

    from bench.harness import make_tokens as players_with_tokens

    tokens = players_with_tokens(count, "bench")
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_counter (id) SELECT id FROM auth_user")
    return tokens


def start_server(workers: int, kind: str = "asgi") -> subprocess.Popen[bytes]:
    config, application = SERVERS[kind]
    # Its output (one JSON line a request) is thrown away, or kept in UNO_BENCH_SERVER_LOG.
    argv = gunicorn_argv(PORT, application, "--workers", str(workers), config=config)
    kept = os.environ.get("UNO_BENCH_SERVER_LOG")
    if kept:
        with open(kept, "ab") as output:  # the server holds its own copy of the file
            server = spawn(argv, environment(), output)
    else:
        server = spawn(argv, environment(), subprocess.DEVNULL)
    try:
        wait_until(lambda: answers(PORT, "/healthz"), 30, "gunicorn did not start")
    except RuntimeError:
        stop(server)
        raise
    return server


def new_game(http: Client, tokens: list[str], seed: int, target: int = TARGET_SCORE) -> Mirror:
    settings = {"max_players": 2, "target_score": target, "seed": seed, "rules": GAME_RULES}
    status, body = http.call("POST", f"{API}/games/", tokens[0], settings)
    assert status == 201, body
    status, body = http.call("POST", f"{API}/games/{body['id']}/join/", tokens[1])
    assert status == 200 and body["status"] == "active", body
    return Mirror(body["id"], tokens, *fold_start(2, settings))


def play_one(http: Client, game: Mirror, rng: random.Random) -> float:
    """One random legal action (uniformly among those listed); returns its latency in seconds."""
    seat = game.state.actor
    action = choose(rng, engine.legal_actions(game.state, seat), prefer_play=0)
    started = time.perf_counter()
    status, body = http.call("POST", f"{API}/games/{game.id}/actions/", game.tokens[seat], action)
    latency = time.perf_counter() - started
    if status != 200:
        raise RuntimeError(f"action refused: {status} {body}")
    events, game.state = engine.act(game.state, seat, action)
    game.version += len(events)
    if body["version"] != game.version:
        raise RuntimeError("the server and the local engine disagree")
    return latency


def view_one(http: Client, game: Mirror) -> float:
    """The view of the seat to act (hand, legal actions); returns its latency in seconds."""
    started = time.perf_counter()
    status, body = http.call("GET", f"{API}/games/{game.id}/", game.tokens[game.state.actor])
    latency = time.perf_counter() - started
    if status != 200:
        raise RuntimeError(f"view refused: {status} {body}")
    if body["version"] != game.version:
        raise RuntimeError("the server and the local engine disagree")
    return latency


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU time used so far by the web server (gunicorn and its workers), PostgreSQL (every
    process of the server) and this load generator, from /proc.

    Each process counts with its ended children (cutime, cstime): gunicorn recycles workers and
    PostgreSQL's backends end with their connections.
    """
    used = {"web": 0.0, "postgres": 0.0}
    for pid, name, fields in processes():
        seconds = sum(int(ticks) for ticks in fields[11:15]) / CLOCK_TICKS
        if pid == server_pid or int(fields[1]) == server_pid:
            used["web"] += seconds
        elif name.endswith("(postgres"):
            used["postgres"] += seconds
    used["client"] = sum(os.times()[:2])
    return used


def worker_seconds(server_pid: int) -> dict[int, float]:
    """CPU time used so far by each worker of the web server (its child processes), by pid: how
    evenly the keep-alive connections of a phase landed on them."""
    return {
        pid: sum(int(ticks) for ticks in fields[11:13]) / CLOCK_TICKS
        for pid, _, fields in processes()
        if int(fields[1]) == server_pid
    }


def worker_shares(before: dict[int, float], after: dict[int, float]) -> str:
    """Each worker's share of the web CPU between two readings, largest first ("55/45%")."""
    spent = sorted((after[pid] - before.get(pid, 0.0) for pid in after), reverse=True)
    total = sum(spent) or 1.0
    return "/".join(f"{part / total * 100:.0f}" for part in spent) + "%"


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # seconds, by part, over the run

    def add(self, other: Load) -> None:
        self.latencies += other.latencies
        self.errors += other.errors
        for part, used in other.cpu.items():
            self.cpu[part] = self.cpu.get(part, 0.0) + used


def run_clients(clients: int, seconds: float, work: Any, server_pid: int) -> tuple[Load, float]:
    loads = [Load() for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    stop_at: list[float] = [0.0]

    def client(index: int) -> None:
        http = Client(PORT)
        step = work(index, http)
        start.wait()
        while time.perf_counter() < stop_at[0]:
            try:
                loads[index].latencies.append(step())
            except Exception as error:  # counted, shown at the end
                loads[index].errors += 1
                print(f"client {index}: {error}", file=sys.stderr)
                http.close()
                http = Client(PORT)
                step = work(index, http)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    stop_at[0] = time.perf_counter() + 1e9
    start.wait()
    cpu_before = cpu_seconds(server_pid)
    began = time.perf_counter()
    stop_at[0] = began + seconds
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    cpu_after = cpu_seconds(server_pid)
    total = Load(cpu={part: cpu_after[part] - cpu_before[part] for part in cpu_before})
    for load in loads:
        total.add(load)
    return total, elapsed


NAMES = {
    "trivial": "trivial lock+insert",
    "action": "game action",
    "trivial_read": "trivial read",
    "view": "game view",
    "trivial_loop": "trivial read + write",
    "loop": "game view + action",
}
# Each pair: the trivial phase, then the game's phase measured against it.
PAIRS = {
    "write": ("trivial", "action"),
    "read": ("trivial_read", "view"),
    "loop": ("trivial_loop", "loop"),
}


def report(name: str, load: Load, elapsed: float) -> dict[str, float]:
    figures = {
        "requests": len(load.latencies),
        "per_second": len(load.latencies) / elapsed,
        "p50_ms": percentile(load.latencies, 0.50, empty=float("nan")) * 1000,
        "p99_ms": percentile(load.latencies, 0.99, empty=float("nan")) * 1000,
        "errors": load.errors,
        **{f"cpu_{part}_ms": used / len(load.latencies) * 1000 for part, used in load.cpu.items()},
    }
    print(
        f"{name:<28} {figures['requests']:>8} req {figures['per_second']:>9.1f}/s "
        f"p50 {figures['p50_ms']:>7.2f} ms  p99 {figures['p99_ms']:>7.2f} ms  "
        f"errors {load.errors}"
    )
    cpu = ", ".join(
        f"{part} {used / len(load.latencies) * 1000:.3f}" for part, used in load.cpu.items()
    )
    busy = sum(load.cpu.values()) / elapsed
    print(f"{'':<28} CPU ms per request: {cpu}; {busy:.2f} cores busy")
    return figures


def latency_by_depth(tokens: list[str], samples: int) -> tuple[float, float, int]:
    """Median latency of actions past the 2,000th event of a game and near the 20th of others.

    One client, taking turns between the deep game and a shallow one, so that a change in the
    machine's load during the run weighs on both sides alike.
    """
    http = Client(PORT)
    rng = random.Random(99)
    deep = new_game(http, tokens, seed=4242, target=10**6)
    while deep.version < 2000:
        play_one(http, deep, rng)
    seeds = iter(range(5000, 10**6))

    def shallow_game() -> Mirror:
        while True:
            game = new_game(http, tokens, seed=next(seeds), target=10**6)
            while game.version < 20 and game.state.status == "active":
                play_one(http, game, rng)
            if game.state.status == "active":
                return game

    shallow = shallow_game()
    early: list[float] = []
    late: list[float] = []
    while len(late) < samples:
        late.append(play_one(http, deep, rng))
        if shallow.version >= 60 or shallow.state.status != "active":
            shallow = shallow_game()
        early.append(play_one(http, shallow, rng))
    return statistics.median(early), statistics.median(late), deep.version


def count_queries() -> tuple[int, int]:
    """SQL statements (round trips) of one action and of one game view, through the whole
    request (the access token's check included), in-process."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    from service import lobby

    a, b = User.objects.get(username="bench0"), User.objects.get(username="bench1")
    game = lobby.game_create(player=a, spec=lobby.NewGame(max_players=2, seed=5))
    lobby.game_join(player=b, game_id=game.pk)
    game.refresh_from_db()
    from players.sessions import session_start

    to_act = a if game.current_seat == 0 else b
    header = {"Authorization": f"Token {session_start(user=to_act).access}"}
    client = DjangoClient()
    path = f"{API}/games/{game.pk}/"
    with CaptureQueriesContext(connection) as views:
        assert client.get(path, headers=header).status_code == 200
    draw = '{"action": "draw"}'
    with CaptureQueriesContext(connection) as actions:
        answer = client.post(
            f"{path}actions/", draw, content_type="application/json", headers=header
        )
        assert answer.status_code == 200, answer.content
    return len(actions.captured_queries), len(views.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--server",
        choices=sorted(SERVERS),
        default="asgi",
        help="asgi: uvicorn workers (the Procfile's web process); gthread: the WSGI workers",
    )
    parser.add_argument("--games-per-client", type=int, default=4)
    parser.add_argument("--depth-samples", type=int, default=300)
    parser.add_argument(
        "--pairs",
        default="write,read,loop",
        help="which game phases to measure beside their trivial twins: write, read, loop",
    )
    args = parser.parse_args()
    pairs = [PAIRS[name] for name in args.pairs.split(",")]

    prepare_database(DB_NAME, environment())
    setup_bench()
    tokens = make_tokens(args.clients * 2)
    server = start_server(args.workers, args.server)
    try:
        print(
            f"gunicorn {args.workers} {args.server} workers, {args.clients} clients, "
            f"{args.rounds} rounds of "
            f"{args.seconds:.0f} s a phase, "
            f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
        )

        def trivial(method: str, index: int, http: Client) -> Any:
            token = tokens[index]
            methods = ("GET", "POST") if method == "loop" else (method,)

            def step() -> float:
                started = time.perf_counter()
                for sent in methods:
                    status, _ = http.call(sent, "/bench/trivial/", token)
                    if status != 200:
                        raise RuntimeError(f"trivial endpoint answered {status}")
                return time.perf_counter() - started

            return step

        def games(mode: str, index: int, http: Client) -> Any:
            pair = tokens[2 * index : 2 * index + 2]
            rng = random.Random(index)
            mirrors = [
                new_game(http, pair, seed=index * 1000 + g) for g in range(args.games_per_client)
            ]
            turn = [0]

            def step() -> float:
                turn[0] += 1
                slot = turn[0] % len(mirrors)
                if mirrors[slot].state.status != "active":
                    mirrors[slot] = new_game(http, pair, seed=rng.randrange(2**31))
                game = mirrors[slot]
                if mode == "view":
                    return view_one(http, game)
                if mode == "loop":
                    return view_one(http, game) + play_one(http, game, rng)
                return play_one(http, game, rng)

            return step

        work: dict[str, Any] = {
            "trivial": functools.partial(trivial, "POST"),
            "trivial_read": functools.partial(trivial, "GET"),
            "trivial_loop": functools.partial(trivial, "loop"),
            "action": functools.partial(games, "action"),
            "view": functools.partial(games, "view"),
            "loop": functools.partial(games, "loop"),
        }
        pid = server.pid
        run_clients(args.clients, 2.0, work["trivial"], pid)  # warm up workers and connections
        # Rounds of every phase in turn, so that a change in the machine's load during the run
        # weighs on all alike.
        phases = [name for pair in pairs for name in pair]
        totals = {name: Load() for name in phases}
        elapsed = {name: 0.0 for name in phases}
        for number in range(1, args.rounds + 1):
            rates = {}
            for name in phases:
                load, seconds = run_clients(args.clients, args.seconds, work[name], pid)
                report(f"round {number}: {NAMES[name]}", load, seconds)
                totals[name].add(load)
                elapsed[name] += seconds
                rates[name] = len(load.latencies) / seconds
            for base, game in pairs:
                print(
                    f"round {number}: {NAMES[game]} / {NAMES[base]} throughput: "
                    f"{rates[game] / rates[base]:.0%}"
                )
        print(f"all {args.rounds} rounds:")
        figures = {name: report(NAMES[name], totals[name], elapsed[name]) for name in phases}
        for base, game in pairs:
            ratio = figures[game]["per_second"] / figures[base]["per_second"]
            print(f"{NAMES[game]} / {NAMES[base]} throughput: {ratio:.0%}")
        early, late, version = latency_by_depth(tokens[:2], args.depth_samples)
        print(
            f"median action latency at event ~20: {early * 1000:.2f} ms; at event ~2,000: "
            f"{late * 1000:.2f} ms ({late / early - 1:+.1%}; game reached v{version})"
        )
        action_queries, view_queries = count_queries()
        print(f"SQL statements of one action: {action_queries}; of one game view: {view_queries}")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
