"""Cost against stored work: the service's reads, an action and the beat sweep, at two sizes of
one database (issue 28, part 1).

Run with ``make bench-scale`` (or ``.venv/bin/python bench/scale.py``; ``--small-only`` for a
quick run, ``--big N`` for the big world's size). It makes a database of its own
(``uno_scale_bench``, or ``UNO_SCALE_DB``) and grows it in two steps:

1. **Templates, through the service.** In this process, ``service.lobby`` and ``service.play``
   (so the unit of work, the projections, checkpoints and hash chain) build a few hundred games:
   waiting games, active correspondence games with 24 h and 3-day turns a few moves in, finished
   games, and long games past 2,000 events; and the *hero*, a player seated in 50 active games.
   A cheap policy plays (``games.engine.bots.choose``, the random bot), mirrored locally from the
   seed as ``bench/service.py`` does, so no read is needed to know whose turn it is.
2. **Copies of the templates.** A game the service wrote is copied row by row (game, seats,
   hands, events, checkpoints) in bulk SQL, with a new id, new players (the roster rebuilt) and
   a deadline of its own spread over the next 1 or 3 days: every row is a row the service wrote,
   with other keys. Building 50,000 games one write at a time would take an hour on this machine;
   the copies take seconds and keep the distribution the templates have. New players are rated
   (a copy of a rating the service wrote), so the leaderboard grows with them.

At each size, in-process, it times the beat sweep (with a fixed number of games made due) and
prints its queries under ``EXPLAIN (ANALYZE, BUFFERS)`` (saved to ``--explain-dir``), counts the
SQL statements of one action and the database's bytes per game and per event. The small world is
then kept as a copy (``<db>_small``, PostgreSQL's template copy) while the database grows into
the big one, and the two are measured over HTTP **side by side**: a gunicorn for each, as the
Procfile runs it (ASGI workers) on loopback, and one client that makes each request of both
worlds in turn (which goes first alternates), so that the machine's other users weigh on both
sizes alike and the ratio of their p50s and p99s says what the data did.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import (  # noqa: E402
    API,
    LIMITS_OFF,
    SERVER,
    Client,
    Mirror,
    answers,
    fold_start,
    gunicorn_argv,
    percentile,
    prepare_database,
    service_env,
    setup_django,
    spawn,
    stop,
    wait_until,
)
from games import engine  # noqa: E402
from games.engine.bots import choose  # noqa: E402

DB_NAME = os.environ.get("UNO_SCALE_DB", "uno_scale_bench")
PORT = int(os.environ.get("UNO_SCALE_PORT", "8771"))
DAY = 86400
TURNS = (DAY, 3 * DAY)  # the correspondence turns: 24 h and 3 days
# The share of each kind of game among the copies (the rest are active games).
WAITING_SHARE = 0.10
FINISHED_SHARE = 0.20
LONG_SHARE = 0.001  # games past 2,000 events
GAMES_PER_PLAYER = 50  # a copy's players are drawn from a pool that grows with the games
HERO_GAMES = 50
DUE_GAMES = 20  # games made due before each timed sweep, at both sizes
ACTIVE_GAMES = 500  # the random active games each world's actions go round
# The tables of a game's rows, and their size figures.
GAME_TABLES = ("games_game", "games_seat", "games_hand", "games_checkpoint", "games_event")


def environment(db: str = DB_NAME) -> dict[str, str]:
    return service_env(
        f"{SERVER}/{db}",
        DJANGO_SETTINGS_MODULE="bench.settings",
        DJANGO_ALLOWED_HOSTS="*",
        **LIMITS_OFF,
    )


# --- the world ------------------------------------------------------------------------------------


@dataclass
class World:
    """What the benchmark knows of the database it grows."""

    tokens: dict[int, str]  # player id -> token
    hero: int
    long_games: list[str]
    templates: dict[str, list[str]]  # kind -> ids of games the service wrote


def new_players(count: int, prefix: str) -> dict[int, str]:
    """``count`` players with a token each, in bulk (no password: they only use tokens)."""
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(count)]
    )
    tokens = Token.objects.bulk_create(
        [Token(user=user, key=Token.generate_key()) for user in users]
    )
    return {token.user_id: token.key for token in tokens}


def start_game(
    players: list[Any], seed: int, *, turn: int, target: int, joined: int | None = None
) -> Mirror:
    """A game created by ``players[0]`` and joined by the others (``joined`` of them), through
    the lobby; mirrored locally from its seed."""
    from service import lobby

    spec = lobby.NewGame(
        max_players=len(players), target_score=target, turn_timeout=turn, seed=seed
    )
    game = lobby.game_create(player=players[0], spec=spec)
    for player in players[1 : joined if joined is not None else None]:
        lobby.game_join(player=player, game_id=game.pk)
    settings = {"max_players": len(players), "target_score": target, "seed": seed}
    state, version = fold_start(len(players), settings)
    return Mirror(str(game.pk), [], state, version)


def play(game: Mirror, players: list[Any], rng: random.Random, moves: int, prefer: float) -> None:
    """Up to ``moves`` actions of the random bot through ``service.play`` (fewer if it ends)."""
    from service import play as service_play

    for _ in range(moves):
        if game.state.status != "active":
            return
        seat = game.state.actor
        action = choose(rng, engine.legal_actions(game.state, seat), prefer_play=prefer)
        played = service_play.game_act(player=players[seat], game_id=game.id, action=action)
        events, game.state = engine.act(game.state, seat, action)
        game.version += len(events)
        if played.game.version != game.version:
            raise RuntimeError("the service and the local engine disagree")


def build_templates(rng: random.Random, count: int) -> tuple[World, float]:
    """The games the copies are made of, and the hero's 50 games, through the service."""
    from django.contrib.auth.models import User

    started = time.perf_counter()
    tokens = new_players(200, "p")
    pool = list(User.objects.filter(pk__in=tokens).order_by("pk"))
    hero = pool[0]
    seeds = iter(range(1, 10**9))
    kinds: dict[str, list[str]] = {"waiting": [], "active": [], "finished": [], "long": []}
    for i in range(count):
        a, b = rng.sample(pool[1:], 2)
        roll = rng.random()
        turn = TURNS[i % 2]
        if roll < 0.15:
            game = start_game(
                [a, b, rng.choice(pool[1:])], next(seeds), turn=turn, target=500, joined=1
            )
            kinds["waiting"].append(game.id)
        elif roll < 0.45:
            game = start_game([a, b], next(seeds), turn=turn, target=1)
            play(game, [a, b], rng, 400, prefer=1.0)
            kinds["finished" if game.state.status != "active" else "active"].append(game.id)
        else:
            game = start_game([a, b], next(seeds), turn=turn, target=500)
            play(game, [a, b], rng, rng.randrange(0, 40), prefer=0.8)
            kinds["active"].append(game.id)
    for _ in range(2):  # long games: uniform play draws often, so rounds last
        a, b = rng.sample(pool[1:], 2)
        game = start_game([a, b], next(seeds), turn=DAY, target=10**6)
        while game.version < 2100 and game.state.status == "active":
            play(game, [a, b], rng, 100, prefer=0.0)
        kinds["long"].append(game.id)
    for i in range(HERO_GAMES):  # the hero: 50 active games, about half waiting on them
        other = rng.choice(pool[1:])
        players = [hero, other] if i % 2 else [other, hero]
        game = start_game(players, next(seeds), turn=TURNS[i % 2], target=500)
        play(game, players, rng, rng.randrange(0, 20), prefer=0.8)
    world = World(tokens, hero.pk, kinds["long"], kinds)
    return world, time.perf_counter() - started


def game_count() -> int:
    from games.models import Game

    return Game.objects.count()


def columns(table: str) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
            "ORDER BY ordinal_position",
            [table],
        )
        return [row[0] for row in cursor.fetchall()]


def copy_sql(table: str, replace: dict[str, str], source: str) -> str:
    """``INSERT INTO table (...) SELECT ...`` of every column of ``table`` but a serial ``id``:
    each from the template row ``t`` unless ``replace`` gives its expression."""
    names = [name for name in columns(table) if not (name == "id" and "id" not in replace)]
    chosen = ", ".join(replace.get(name, f"t.{name}") for name in names)
    return f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} {source}"


def grow(world: World, rng: random.Random, target: int) -> float:
    """Copies of the templates until the database holds ``target`` games; the seconds it took."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from players.models import Rating

    started = time.perf_counter()
    missing = target - game_count()
    if missing <= 0:
        return 0.0
    players_wanted = max(len(world.tokens), target * 2 // GAMES_PER_PLAYER)
    if players_wanted > len(world.tokens):
        fresh = new_players(players_wanted - len(world.tokens), f"q{len(world.tokens)}_")
        world.tokens.update(fresh)
        model = Rating.objects.order_by("-games_played").first()
        if model is not None:
            Rating.objects.bulk_create(
                [
                    Rating(
                        user_id=pk,
                        mu=model.mu + rng.uniform(-5, 5),
                        sigma=model.sigma,
                        ordinal=model.ordinal + rng.uniform(-5, 5),
                        games_played=model.games_played,
                        games_won=model.games_won,
                    )
                    for pk in fresh
                ]
            )
    pool = [pk for pk in world.tokens if pk != world.hero]
    names = dict(User.objects.filter(pk__in=pool).values_list("pk", "username"))
    rows: list[tuple[Any, ...]] = []
    for _ in range(missing):
        roll = rng.random()
        if roll < LONG_SHARE:
            kind = "long"
        elif roll < LONG_SHARE + WAITING_SHARE:
            kind = "waiting"
        elif roll < LONG_SHARE + WAITING_SHARE + FINISHED_SHARE:
            kind = "finished"
        else:
            kind = "active"
        a, b, c = rng.sample(pool, 3)
        rows.append(
            (
                rng.choice(world.templates[kind]),
                a,
                names[a],
                b,
                names[b],
                c,
                names[c],
                rng.uniform(0, 30 * DAY),  # the game's age, seconds
                rng.uniform(0.05, 1.0),  # the share of its turn still to run
            )
        )
    roster = (
        "(SELECT coalesce(jsonb_agg(jsonb_build_object("
        "'id', (ARRAY[m.p0, m.p1, m.p2])[r.n], 'username', (ARRAY[m.u0, m.u1, m.u2])[r.n]"
        ") ORDER BY r.n), '[]'::jsonb) FROM jsonb_array_elements(t.roster) WITH ORDINALITY r(e, n))"
    )
    deadline = "now() + make_interval(secs => m.left_share * t.turn_timeout)"
    game = {
        "id": "m.new_id",
        "roster": roster,
        "invite_code": "NULL",
        "rematch_id": "NULL",
        "created_by_id": "m.p0",
        "created_at": "now() - make_interval(secs => m.age)",
        "updated_at": "now() - make_interval(secs => (1 - m.left_share) * t.turn_timeout)",
        "turn_deadline": f"CASE WHEN t.turn_deadline IS NULL THEN NULL ELSE {deadline} END",
        "turn_started_at": (
            "CASE WHEN t.turn_started_at IS NULL THEN NULL ELSE "
            "now() - make_interval(secs => (1 - m.left_share) * t.turn_timeout) END"
        ),
        "remind_at": (
            f"CASE WHEN t.remind_at IS NULL THEN NULL ELSE {deadline} "
            "- make_interval(secs => 0.2 * t.turn_timeout) END"
        ),
    }
    rows_of = "FROM bench_clone m JOIN {table} t ON t.game_id = m.src"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_clone (src uuid, p0 int, u0 text, p1 int, u1 text, "
            "p2 int, u2 text, age float8, left_share float8, "
            "new_id uuid DEFAULT gen_random_uuid()) ON COMMIT DROP"
        )
        with cursor.cursor.copy(
            "COPY bench_clone (src, p0, u0, p1, u1, p2, u2, age, left_share) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)
        cursor.execute(
            copy_sql("games_game", game, "FROM bench_clone m JOIN games_game t ON t.id = m.src")
        )
        seat_player = "(ARRAY[m.p0, m.p1, m.p2])[t.number + 1]"
        cursor.execute(
            copy_sql(
                "games_seat",
                {"game_id": "m.new_id", "player_id": seat_player},
                rows_of.format(table="games_seat"),
            )
        )
        for table in ("games_hand", "games_checkpoint", "games_event"):
            cursor.execute(copy_sql(table, {"game_id": "m.new_id"}, rows_of.format(table=table)))
        cursor.execute(
            "SELECT m.new_id FROM bench_clone m JOIN games_game t ON t.id = m.src "
            "WHERE t.id = ANY(%s)",
            [world.long_games[:2]],
        )
        world.long_games += [str(row[0]) for row in cursor.fetchall()][:8]
    return time.perf_counter() - started


def catch_up() -> tuple[int, float]:
    """What the beat would have done as the copies' time passed: their due reminders written,
    through the service's sweep (``service.reminders.remind_due``, a unit of work each); then
    the tables vacuumed and analyzed as autovacuum leaves them. (reminders, seconds)"""
    from django.db import connection

    from service import reminders

    started = time.perf_counter()
    written = 0
    while True:
        batch = reminders.remind_due()
        written += batch
        if batch == 0:
            break
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return written, time.perf_counter() - started


def grown(world: World, rng: random.Random, target: int) -> None:
    seconds = grow(world, rng, target)
    print(f"grew to {game_count()} games by copies in {seconds:.1f} s")
    written, seconds = catch_up()
    print(f"  {written} due reminders written by the sweep, then VACUUM ANALYZE: {seconds:.1f} s")


# --- the figures ----------------------------------------------------------------------------------


def start_server(workers: int, port: int, db: str) -> subprocess.Popen[bytes]:
    """gunicorn with the Procfile's web configuration (ASGI workers), on the database ``db``."""
    argv = gunicorn_argv(
        port,
        "unoservice.asgi:application",
        "--workers",
        str(workers),
        config="unoservice.gunicorn_asgi",
    )
    server = spawn(argv, environment(db), subprocess.DEVNULL)
    try:
        wait_until(lambda: answers(port, "/healthz"), 60, "gunicorn did not start")
    except RuntimeError:
        stop(server)
        raise
    return server


def timed(http: Client, method: str, path: str, token: str, body: Any = None) -> tuple[float, Any]:
    started = time.perf_counter()
    status, answer = http.call(method, path, token, body)
    latency = time.perf_counter() - started
    if status != 200:
        raise RuntimeError(f"{method} {path}: {status} {answer}")
    return latency, answer


def rows_of(db: str, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """A read of the database ``db`` (each world's own: the small one is a copy)."""
    import psycopg

    with psycopg.connect(f"{SERVER}/{db}") as conn:
        return conn.execute(sql, params).fetchall()


def active_games(count: int, db: str = DB_NAME) -> list[tuple[str, int]]:
    """``count`` random active games and the player who must act in each."""
    found = rows_of(
        db,
        "SELECT g.id, s.player_id FROM games_game g "
        "JOIN games_seat s ON s.game_id = g.id AND s.number = g.current_seat "
        "WHERE g.status = 'active' ORDER BY random() LIMIT %s",
        [count],
    )
    return [(str(pk), player) for pk, player in found]


class Probe:
    """One world measured over HTTP: its server's client, the games it acts in, its long games,
    and the latencies it saw."""

    def __init__(self, db: str, port: int, world: World, games: int) -> None:
        import psycopg

        self.http = Client(port)
        self.db = psycopg.connect(f"{SERVER}/{db}", autocommit=True)
        # The games it acts in, in turn (each again once the others had their move).
        self.active = [game for game, _ in active_games(games, db)]
        self.turn = 0
        self.longs = self.db.execute(
            "SELECT g.id::text, s.player_id, g.version FROM games_game g "
            "JOIN games_seat s ON s.game_id = g.id AND s.number = 0 WHERE g.id::text = ANY(%s)",
            [world.long_games],
        ).fetchall()
        self.results: dict[str, list[float]] = {}

    def next_game(self) -> tuple[str, int]:
        """The next active game and the player who must act in it (read, not timed)."""
        for _ in range(len(self.active)):
            game = self.active[self.turn % len(self.active)]
            self.turn += 1
            row = self.db.execute(
                "SELECT s.player_id FROM games_game g JOIN games_seat s ON s.game_id = g.id "
                "AND s.number = g.current_seat WHERE g.id = %s AND g.status = 'active'",
                [game],
            ).fetchone()
            if row is not None:
                return game, int(row[0])
        raise RuntimeError("no active game left to act in")

    def close(self) -> None:
        self.http.close()
        self.db.close()

    def add(self, name: str, latency: float) -> None:
        self.results.setdefault(name, []).append(latency)

    def figures(self) -> dict[str, tuple[float, float]]:
        return {
            name: (percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000)
            for name, lat in self.results.items()
        }


def measure(
    probes: list[Probe], world: World, rng: random.Random, samples: int
) -> list[dict[str, tuple[float, float]]]:
    """p50 and p99 (ms) of each read and of an action in each world, by one client. The worlds
    are measured side by side: each request is made of every world in turn (the first one
    alternating), so the machine's other users weigh on both alike."""
    hero = world.tokens[world.hero]
    some_token = world.tokens[next(iter(world.tokens))]

    def view_and_act(probe: Probe) -> None:
        game_id, player = probe.next_game()
        token = world.tokens[player]
        latency, view = timed(probe.http, "GET", f"{API}/games/{game_id}/", token)
        probe.add("game view", latency)
        legal = (view.get("you") or {}).get("legal_actions") or []
        if not legal:  # the turn is not the seat's after all (a choice pending elsewhere)
            return
        action = choose(rng, legal, prefer_play=0.8)
        path = f"{API}/games/{game_id}/actions/"
        probe.add("action", timed(probe.http, "POST", path, token, action)[0])

    def events_page(probe: Probe) -> None:
        game_id, player, version = rng.choice(probe.longs)
        after = rng.randrange(0, max(1, version - 50))
        path = f"{API}/games/{game_id}/events/?after={after}"
        probe.add("event log page", timed(probe.http, "GET", path, world.tokens[player])[0])

    def replay(probe: Probe) -> None:
        game_id, player, version = rng.choice(probe.longs)
        path = f"{API}/games/{game_id}/replay/?at={rng.randrange(1, version)}"
        latency = timed(probe.http, "GET", path, world.tokens[player])[0]
        probe.add("replay of a long game", latency)

    def read(name: str, path: Callable[[], str], token: str) -> Callable[[Probe], None]:
        return lambda probe: probe.add(name, timed(probe.http, "GET", path(), token)[0])

    steps: list[Callable[[Probe], None]] = [
        view_and_act,
        events_page,
        replay,
        read("inbox (my_turn, 50 games)", lambda: f"{API}/games/?my_turn=true", hero),
        read("lobby: open games", lambda: f"{API}/games/?status=waiting", some_token),
        read("a player's game list", lambda: f"{API}/games/?mine=true", hero),
        read("leaderboard", lambda: f"{API}/leaderboard/", some_token),
        read("profile (50 games)", lambda: f"{API}/players/{world.hero}/", some_token),
    ]
    for probe in probes:
        for _ in range(10):  # warm the workers and their connections
            probe.http.call("GET", f"{API}/games/?status=waiting", some_token)
    turn = 0
    for _ in range(samples):
        for step in steps:
            for probe in probes[turn % len(probes) :] + probes[: turn % len(probes)]:
                step(probe)
            turn += 1
    for probe in probes:
        probe.close()
    return [probe.figures() for probe in probes]


def latencies_of(
    worlds: list[tuple[str, str]], world: World, rng: random.Random, args: argparse.Namespace
) -> list[dict[str, tuple[float, float]]]:
    """Each world (label, database) served by a gunicorn of its own, measured side by side."""
    servers: list[subprocess.Popen[bytes]] = []
    try:
        for offset, (_, db) in enumerate(worlds):
            servers.append(start_server(args.workers, PORT + offset, db))
        probes = [
            Probe(db, PORT + offset, world, ACTIVE_GAMES) for offset, (_, db) in enumerate(worlds)
        ]
        figures = measure(probes, world, rng, args.samples)
    finally:
        for server in servers:
            stop(server)
    for (label, _), latencies in zip(worlds, figures, strict=True):
        print(f"{label}: over HTTP, side by side")
        for name, (p50, p99) in latencies.items():
            print(f"  {name:<28} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms")
    return figures


def make_due(count: int) -> None:
    """``count`` random active games whose turn ran out a minute ago (time passing)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET turn_deadline = now() - interval '1 minute', "
            "remind_at = now() - interval '2 minutes' WHERE id IN (SELECT id FROM games_game "
            "WHERE status = 'active' ORDER BY random() LIMIT %s)",
            [count],
        )


def sweep_once() -> tuple[float, list[str]]:
    """One run of the beat's sweeps (the overdue games', the notifications'): seconds, and the
    SQL of its reads."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from service import tasks

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        tasks.sweep_overdue_games()
        tasks.sweep()
        elapsed = time.perf_counter() - started
    return elapsed, [q["sql"] for q in queries.captured_queries]


def explain(statements: list[str]) -> Iterator[str]:
    """Each distinct read of the sweep (and the drain's ``WITH … UPDATE``) under ``EXPLAIN
    (ANALYZE, BUFFERS)``, in a transaction rolled back (what a plan locks or marks, it undoes)."""
    from django.db import connection, transaction

    seen: set[str] = set()
    for sql in statements:
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")) or sql in seen:
            continue
        seen.add(sql)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            transaction.set_rollback(True)
        yield f"{sql}\n{plan}\n"


def sweep_figures(label: str, explain_dir: Path) -> dict[str, float]:
    """The sweep's time with nothing due (median of 20) and with ``DUE_GAMES`` due; its reads'
    plans saved to ``explain_dir``."""
    sweep_once()  # a first run clears what the building left due (reminders, deliveries)
    idle = [sweep_once()[0] for _ in range(20)]
    make_due(DUE_GAMES)
    due, statements = sweep_once()
    explain_dir.mkdir(parents=True, exist_ok=True)
    path = explain_dir / f"sweep-{label.split()[0]}.txt"
    plans = list(explain(sweep_once()[1]))
    path.write_text("\n".join(plans))
    for plan in plans:
        lines = plan.splitlines()
        top = next(line for line in lines if "->" in line or "cost=" in line)
        execution = next(line for line in lines if line.startswith("Execution Time"))
        print(f"  sweep read: {lines[0][:90]}...\n    {top.strip()[:110]}\n    {execution}")
    print(f"  sweep plans: {path}")
    return {
        "idle_ms": statistics.median(idle) * 1000,
        "due_ms": due * 1000,
        "reads": len(statements),
    }


def statements_per_action(world: World) -> int:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import selectors
    from service import play as service_play

    game_id, player_id = active_games(20)[0]
    player = User.objects.get(pk=player_id)
    view = selectors.game_view(selectors.get_game(game_id, player), player)
    action = choose(random.Random(5), view, prefer_play=0.8)
    with CaptureQueriesContext(connection) as queries:
        service_play.game_act(player=player, game_id=game_id, action=action)
    return len(queries.captured_queries)


def bytes_per(label: str) -> dict[str, float]:
    from django.db import connection

    with connection.cursor() as cursor:
        sizes = {}
        for table in GAME_TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            sizes[table] = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM games_game")
        games = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM games_event")
        events = cursor.fetchone()[0]
    figures = {
        "games": games,
        "events": events,
        "bytes_per_game": sum(sizes.values()) / games,
        "bytes_per_event": sizes["games_event"] / max(1, events),
    }
    print(
        f"  {label}: {games} games, {events} events; {figures['bytes_per_game']:.0f} bytes a game "
        f"(all its rows), {figures['bytes_per_event']:.0f} bytes an event (table and indexes)"
    )
    return figures


@dataclass
class Figures:
    """A world's figures measured in this process (the HTTP latencies are measured apart)."""

    sweep: dict[str, float]
    statements: int
    size: dict[str, float]


def figures_at(label: str, world: World, args: argparse.Namespace) -> Figures:
    print(f"{label}: the sweep, an action's statements, the bytes")
    sweep = sweep_figures(label, args.explain_dir)
    print(
        f"  sweep: {sweep['idle_ms']:.2f} ms with nothing due; {sweep['due_ms']:.1f} ms with "
        f"{DUE_GAMES} games due"
    )
    statements = statements_per_action(world)
    print(f"  SQL statements of one action: {statements}")
    return Figures(sweep, statements, bytes_per(label))


def copy_database(source: str, copy: str) -> None:
    """``copy``: the database ``source`` as it is now (PostgreSQL's template copy), so that the
    small world can be served beside the big one that ``source`` grows into."""
    import psycopg
    from django.db import connections

    connections.close_all()  # a template must have no other session
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {copy} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {copy} TEMPLATE {source}")


def table(
    small: Figures,
    big: Figures,
    latencies: list[dict[str, tuple[float, float]]],
) -> None:
    games = (int(small.size["games"]), int(big.size["games"]))
    print(
        f"\n| | {games[0]:,} games p50 / p99 (ms) | {games[1]:,} games p50 / p99 (ms) "
        "| p50 big/small | p99 big/small |"
    )
    print("| --- | --- | --- | --- | --- |")
    for name, (p50, p99) in latencies[0].items():
        b50, b99 = latencies[1][name]
        print(
            f"| {name} | {p50:.2f} / {p99:.2f} | {b50:.2f} / {b99:.2f} "
            f"| {b50 / p50:.2f} | {b99 / p99:.2f} |"
        )
    print(
        f"| sweep, nothing due (median) | {small.sweep['idle_ms']:.2f} "
        f"| {big.sweep['idle_ms']:.2f} | "
        f"{big.sweep['idle_ms'] / small.sweep['idle_ms']:.2f} | |"
    )
    print(
        f"| sweep, {DUE_GAMES} games due | {small.sweep['due_ms']:.1f} "
        f"| {big.sweep['due_ms']:.1f} | "
        f"{big.sweep['due_ms'] / small.sweep['due_ms']:.2f} | |"
    )
    print(f"| SQL statements of an action | {small.statements} | {big.statements} | | |")
    for key, name in (("bytes_per_game", "bytes a game"), ("bytes_per_event", "bytes an event")):
        print(f"| {name} | {small.size[key]:.0f} | {big.size[key]:.0f} | | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1000, help="games of the small world")
    parser.add_argument("--big", type=int, default=50000, help="games of the big world")
    parser.add_argument("--small-only", action="store_true", help="measure the small world only")
    parser.add_argument(
        "--templates", type=int, default=250, help="games built through the service"
    )
    parser.add_argument("--samples", type=int, default=1000, help="requests per endpoint and size")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--explain-dir", type=Path, default=Path("/tmp/uno-scale"))
    args = parser.parse_args()

    rng = random.Random(28)
    env = environment()
    prepare_database(DB_NAME, env)
    setup_django(env)
    # A line per action, timeout and request (httpx's): not the figures.
    for name in ("unoservice", "service", "httpx"):
        logging.getLogger(name).setLevel(logging.WARNING)
    world, seconds = build_templates(rng, args.templates)
    print(
        f"built {game_count()} games through the service in {seconds:.1f} s "
        f"({os.cpu_count()} cores, Python {sys.version.split()[0]})"
    )
    grown(world, rng, args.small)
    small_label = f"small ({game_count()} games)"
    small = figures_at(small_label, world, args)
    if args.small_only:
        latencies_of([(small_label, DB_NAME)], world, rng, args)
        return
    small_db = f"{DB_NAME}_small"
    copy_database(DB_NAME, small_db)
    grown(world, rng, args.big)
    big_label = f"big ({game_count()} games)"
    big = figures_at(big_label, world, args)
    latencies = latencies_of([(small_label, small_db), (big_label, DB_NAME)], world, rng, args)
    table(small, big, latencies)


if __name__ == "__main__":
    main()
