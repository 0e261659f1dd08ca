"""Where a request's CPU goes, in one process: the game's action and view beside the trivial
write and read of ``bench/urls.py``, through the whole Django stack (middleware, DRF, the access
token's check), PostgreSQL on loopback.

``bench/service.py`` measures throughput over HTTP, where the machine's other users move the
figures by a third; this one reads the process's own CPU clock around many requests made one at
a time by Django's test client (its own cost, about 0.3 ms a request, is in every figure alike),
so two trees compare side by side even on a busy machine, and ``--profile`` shows the calls
(cProfile, CPU clock) behind one kind of request::

    .venv/bin/python bench/request_cpu.py                      # every kind, 1,500 requests each
    .venv/bin/python bench/request_cpu.py --only action --profile

It also lists the SQL statements of one request of each kind.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import (  # noqa: E402
    API,
    BENCH_SALT,
    SERVER,
    prepare_database,
    service_env,
    setup_django,
)
from games import engine  # noqa: E402
from games.engine.bots import choose  # noqa: E402

DB_NAME = os.environ.get("UNO_BENCH_DB", "uno_bench_request_cpu")
PLAYERS = 8
GAMES = 16
KINDS = ("action", "view", "trivial", "trivial_read", "game_list", "unread")


class Requests:
    """The kinds of request, each a callable making one (and checking its answer)."""

    def __init__(self, rng: random.Random) -> None:
        from django.contrib.auth.models import User
        from django.db import connection
        from django.test import Client

        from bench.urls import TABLES
        from players.sessions import session_start

        with connection.cursor() as cursor:
            cursor.execute(TABLES)
        self.rng = rng
        self.client = Client()
        users = [User.objects.create_user(f"cpu{i}") for i in range(PLAYERS)]
        self.tokens = [session_start(user=user).access for user in users]
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_counter (id) SELECT id FROM auth_user")
        self.games = [self._new_game(seed) for seed in range(GAMES)]

    def call(self, method: str, path: str, token: str, body: Any = None) -> Any:
        answer = self.client.generic(
            method,
            path,
            "" if body is None else json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Token {token}"},
        )
        if answer.status_code not in (200, 201):
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.content[:200]!r}")
        return answer.json()

    def _new_game(self, seed: int) -> list[Any]:
        settings = {"max_players": 2, "target_score": 500, "seed": seed, "rules": {}}
        first, second = self.rng.sample(self.tokens, 2)
        made = self.call("POST", f"{API}/games/", first, settings)
        self.call("POST", f"{API}/games/{made['id']}/join/", second)
        options = engine.make_options({}, target_score=500, max_timeouts=3)
        state = engine.replay(engine.start_game(2, options, seed, salt=BENCH_SALT))
        return [made["id"], [first, second], state]

    def action(self) -> None:
        game = self.rng.choice(self.games)
        state = game[2]
        if state.status != "active":
            game[:] = self._new_game(self.rng.randrange(2**31))
            state = game[2]
        seat = state.actor
        sent = choose(self.rng, engine.legal_actions(state, seat), prefer_play=0)
        self.call("POST", f"{API}/games/{game[0]}/actions/", game[1][seat], sent)
        _, game[2] = engine.act(state, seat, sent)

    def view(self) -> None:
        game = self.rng.choice(self.games)
        self.call("GET", f"{API}/games/{game[0]}/", game[1][game[2].actor])

    def trivial(self) -> None:
        self.call("POST", "/bench/trivial/", self.rng.choice(self.tokens))

    def trivial_read(self) -> None:
        self.call("GET", "/bench/trivial/", self.rng.choice(self.tokens))

    def game_list(self) -> None:
        """A page of the games list (every game here: 16 rows), as the lobby reads it."""
        listed = self.call("GET", f"{API}/games/", self.rng.choice(self.tokens))
        if len(listed["results"]) != GAMES:
            raise RuntimeError(f"listed {len(listed['results'])} games, not {GAMES}")

    def unread(self) -> None:
        """The inbox's count of unread notifications, as the page asks it on each one."""
        token = self.rng.choice(self.tokens)
        self.call("GET", f"{API}/notifications/?unread=true&page_size=1", token)


def quiet_logs() -> None:
    """The service's log lines are formatted as deployed (their cost is the service's) and
    written to /dev/null rather than over the figures."""
    import logging

    sink = open(os.devnull, "w")  # noqa: SIM115 (open for the process's life)
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    for logger in loggers:
        for handler in getattr(logger, "handlers", []):
            if isinstance(handler, logging.StreamHandler):
                handler.setStream(sink)


def statements_of(request: Callable[[], None]) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        request()
    return [query["sql"] for query in captured.captured_queries]


def backend_cpu() -> float:
    """CPU seconds so far of the PostgreSQL backend serving this process's connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_per_request(request: Callable[[], None], count: int) -> tuple[float, float]:
    """This process's and its PostgreSQL backend's CPU seconds per request, over ``count``."""
    began, began_backend = time.process_time(), backend_cpu()
    for _ in range(count):
        request()
    return (time.process_time() - began) / count, (backend_cpu() - began_backend) / count


def profile(request: Callable[[], None], count: int, lines: int) -> str:
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(count):
        request()
    profiler.disable()
    out = io.StringIO()
    kept = os.environ.get("UNO_BENCH_PROFILE")  # a file for pstats' own browsing
    if kept:
        profiler.dump_stats(kept)
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(lines)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1500, help="of each kind")
    parser.add_argument("--only", choices=KINDS, action="append", help="these kinds only")
    parser.add_argument("--profile", action="store_true", help="cProfile the kinds measured")
    parser.add_argument("--lines", type=int, default=60, help="of each profile")
    args = parser.parse_args()

    env = service_env(
        f"{SERVER}/{DB_NAME}", DJANGO_SETTINGS_MODULE="bench.settings", DJANGO_ALLOWED_HOSTS="*"
    )
    prepare_database(DB_NAME, env)
    setup_django(env)
    quiet_logs()
    requests = Requests(random.Random(1))
    kinds = args.only or list(KINDS)
    for kind in kinds:
        request = getattr(requests, kind)
        for _ in range(100):  # warm: prepared statements, caches
            request()
        statements = statements_of(request)
        print(f"{kind}: {len(statements)} SQL statements")
        for sql in statements:
            print(f"    {sql[:110]}")
    print(f"CPU ms per request ({args.requests} each): this process (Django and the client)")
    print("and the PostgreSQL backend serving it")
    for kind in kinds:
        seconds, backend = cpu_per_request(getattr(requests, kind), args.requests)
        print(f"  {kind:<13} {seconds * 1000:7.3f} {backend * 1000:7.3f}")
    if args.profile:
        for kind in kinds:
            print(f"--- {kind}")
            print(profile(getattr(requests, kind), args.requests, args.lines))


if __name__ == "__main__":
    main()
