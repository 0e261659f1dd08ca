"""Service benchmark: game actions against a trivial endpoint, over HTTP, gunicorn and PostgreSQL.

Run with ``make bench-service`` (or ``.venv/bin/python bench/service.py``). It makes a database of
its own (``unoservice_bench``), starts gunicorn on loopback, and drives it with keep-alive clients
in threads:

1. ``POST /bench/trivial/`` (authenticated; locks the caller's row, inserts one row), then
2. ``POST /api/v1/games/{id}/actions/`` over many 2-player games, each client playing its games
   with random legal actions. The client folds the same actions through the engine locally (it
   knows the seed), so it always knows who must act and what is legal without extra reads.

Then it measures the latency of one action at the 20th and at the 2,000th event of a game, and
counts the SQL queries of one action in-process.
"""

from __future__ import annotations

import argparse
import http.client
import json
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
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402

DB_NAME = "unoservice_bench"
SERVER = "postgres://postgres@127.0.0.1:5432"
HOST, PORT = "127.0.0.1", 8765
GAME_RULES: dict[str, Any] = {}
TARGET_SCORE = 500


def percentile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{SERVER}/{DB_NAME}",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-benchmark-only-secret-key",
        "DJANGO_ALLOWED_HOSTS": "*",
        "DATABASE_CONN_MAX_AGE": "600",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain http on loopback
        "DJANGO_SECURE_COOKIES": "0",
        "PYTHONPATH": str(ROOT),
    }


def prepare_database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=environment(), check=True
    )


def setup_django() -> None:
    os.environ.update(environment())
    import django

    django.setup()
    from django.db import connection

    from bench.urls import TABLES

    with connection.cursor() as cursor:
        cursor.execute(TABLES)


def make_tokens(count: int) -> list[str]:
    from django.contrib.auth.models import User
    from django.db import connection
    from rest_framework.authtoken.models import Token

    tokens = []
    for i in range(count):
        user = User.objects.create_user(f"bench{i}", password="bench password 1")
        tokens.append(Token.objects.create(user=user).key)
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_counter (id) VALUES (%s)", [user.pk])
    return tokens


def start_server(workers: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "-c",
            "python:unoservice.gunicorn_conf",  # the deployed configuration (gthread workers)
            "--bind",
            f"{HOST}:{PORT}",
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.DEVNULL,  # one JSON line a request: written, then thrown away
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, PORT, timeout=1)
            conn.request("GET", "/api/v1/games/")
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("gunicorn did not start")


class Http:
    """One keep-alive connection."""

    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection(HOST, PORT, timeout=30)

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        payload = None if body is None else json.dumps(body)
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None


@dataclass
class LocalGame:
    """A game on the server and the same game folded locally: who must act, what is legal."""

    id: str
    tokens: list[str]
    state: engine.GameState
    version: int


def new_game(http: Http, tokens: list[str], seed: int, target: int = TARGET_SCORE) -> LocalGame:
    settings = {"max_players": 2, "target_score": target, "seed": seed, "rules": GAME_RULES}
    status, body = http.call("POST", "/api/v1/games/", tokens[0], settings)
    assert status == 201, body
    status, body = http.call("POST", f"/api/v1/games/{body['id']}/join/", tokens[1])
    assert status == 200 and body["status"] == "active", body
    options = engine.make_options(GAME_RULES, target_score=target)
    events = engine.start_game(2, options, seed)
    return LocalGame(body["id"], tokens, engine.replay(events), len(events))


def play_one(http: Http, game: LocalGame, rng: random.Random) -> float:
    """One random legal action; returns its latency in seconds."""
    seat = game.state.actor
    action = rng.choice(engine.legal_actions(game.state, seat))
    started = time.perf_counter()
    status, body = http.call("POST", f"/api/v1/games/{game.id}/actions/", game.tokens[seat], action)
    latency = time.perf_counter() - started
    if status != 200:
        raise RuntimeError(f"action refused: {status} {body}")
    events, game.state = engine.act(game.state, seat, action)
    game.version += len(events)
    if body["version"] != game.version:
        raise RuntimeError("the server and the local engine disagree")
    return latency


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


def run_clients(clients: int, seconds: float, work: Any) -> tuple[Load, float]:
    loads = [Load() for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    stop_at: list[float] = [0.0]

    def client(index: int) -> None:
        http = Http()
        step = work(index, http)
        start.wait()
        while time.perf_counter() < stop_at[0]:
            try:
                loads[index].latencies.append(step())
            except Exception as error:  # counted, shown at the end
                loads[index].errors += 1
                print(f"client {index}: {error}", file=sys.stderr)
                http = Http()
                step = work(index, http)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    stop_at[0] = time.perf_counter() + 1e9
    start.wait()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    total = Load()
    for load in loads:
        total.latencies += load.latencies
        total.errors += load.errors
    return total, elapsed


def report(name: str, load: Load, elapsed: float) -> dict[str, float]:
    figures = {
        "requests": len(load.latencies),
        "per_second": len(load.latencies) / elapsed,
        "p50_ms": percentile(load.latencies, 0.50) * 1000,
        "p99_ms": percentile(load.latencies, 0.99) * 1000,
        "errors": load.errors,
    }
    print(
        f"{name:<28} {figures['requests']:>8} req {figures['per_second']:>9.1f}/s "
        f"p50 {figures['p50_ms']:>7.2f} ms  p99 {figures['p99_ms']:>7.2f} ms  "
        f"errors {load.errors}"
    )
    return figures


def latency_by_depth(tokens: list[str], samples: int) -> tuple[float, float, int]:
    """Median latency of actions near the 20th event and near the 2,000th of one game."""
    http = Http()
    rng = random.Random(99)
    game = new_game(http, tokens, seed=4242, target=10**6)
    early: list[float] = []
    late: list[float] = []
    while len(late) < samples:
        latency = play_one(http, game, rng)
        if 20 <= game.version < 20 + samples * 3 and len(early) < samples:
            early.append(latency)
        elif game.version >= 2000:
            late.append(latency)
    return statistics.median(early), statistics.median(late), game.version


def count_queries() -> int:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import services

    a, b = User.objects.get(username="bench0"), User.objects.get(username="bench1")
    game = services.game_create(player=a, spec=services.NewGame(max_players=2, seed=5))
    services.game_join(player=b, game_id=game.pk)
    game.refresh_from_db()
    player = a if game.current_seat == 0 else b
    with CaptureQueriesContext(connection) as queries:
        services.game_act(player=player, game_id=game.pk, action={"action": "draw"})
    return len(queries.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--games-per-client", type=int, default=4)
    parser.add_argument("--depth-samples", type=int, default=200)
    args = parser.parse_args()

    prepare_database()
    setup_django()
    tokens = make_tokens(args.clients * 2)
    server = start_server(args.workers)
    try:
        print(
            f"gunicorn {args.workers} workers, {args.clients} clients, {args.seconds:.0f} s each, "
            f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
        )

        def trivial(index: int, http: Http) -> Any:
            token = tokens[index]

            def step() -> float:
                started = time.perf_counter()
                status, _ = http.call("POST", "/bench/trivial/", token)
                if status != 200:
                    raise RuntimeError(f"trivial endpoint answered {status}")
                return time.perf_counter() - started

            return step

        def actions(index: int, http: Http) -> Any:
            pair = tokens[2 * index : 2 * index + 2]
            rng = random.Random(index)
            games = [
                new_game(http, pair, seed=index * 1000 + g) for g in range(args.games_per_client)
            ]
            turn = [0]

            def step() -> float:
                turn[0] += 1
                slot = turn[0] % len(games)
                if games[slot].state.status != "active":
                    games[slot] = new_game(http, pair, seed=rng.randrange(2**31))
                return play_one(http, games[slot], rng)

            return step

        run_clients(args.clients, 2.0, trivial)  # warm up the workers and connections
        base = report("trivial lock+insert", *run_clients(args.clients, args.seconds, trivial))
        game = report("game action", *run_clients(args.clients, args.seconds, actions))
        print(f"game action / trivial throughput: {game['per_second'] / base['per_second']:.0%}")
        early, late, version = latency_by_depth(tokens[:2], args.depth_samples)
        print(
            f"median action latency at event ~20: {early * 1000:.2f} ms; at event ~2,000: "
            f"{late * 1000:.2f} ms ({late / early - 1:+.1%}; game reached v{version})"
        )
        print(f"SQL queries of one action: {count_queries()}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
