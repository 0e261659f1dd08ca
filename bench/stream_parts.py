"""The parts of feeding the streams, each measured alone: a notice, a read of the news, a write.

Run with ``.venv/bin/python bench/stream_parts.py`` after ``bench/streams.py`` has made its
database (``UNO_BENCH_DB``, by default ``unoservice_streams_bench``: its games are read). Each
part runs its two ways in turn, twice, and prints the CPU time of this process per item:

- a notice received on the LISTEN connection (20,000 ``pg_notify`` sent by a child process):
  psycopg's ``AsyncConnection.notifies()`` against the hub's own reader callback
  (``Hub._receive``, which also parses each notice);
- the hub's read of the news (the news statement, one game and four at once), awaited on the
  event loop: in a stream thread through Django's connection, prepared (the sixth pass) against
  on the listening connection itself, with no thread (``Hub._send_read``, the seventh pass);
- a write of 300 bytes to each of 1,000 loopback sockets from uvloop (the clients in a child).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = os.environ.get("UNO_BENCH_DB", "unoservice_streams_bench")
NOTICES = 20_000
SOCKETS = 1_000


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def notices(dsn: str, way: str) -> float:
    """CPU seconds per notice received ``way``."""
    import psycopg

    conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    await conn.execute("LISTEN uno_bench_parts")
    child = os.fork()
    if child == 0:
        with psycopg.connect(dsn, autocommit=True) as sender:
            time.sleep(0.3)
            for number in range(NOTICES):
                sender.execute("SELECT pg_notify('uno_bench_parts', %s)", (f"g:{number}",))
        os._exit(0)
    got = 0
    start = cpu()
    if way == "notifies()":
        async for _ in conn.notifies():
            got += 1
            if got == NOTICES:
                break
    else:  # the hub's own callback, counting the notices it hands on
        from streams import hub

        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        class Counting(hub.Hub):
            def _notice(self, channel: str, payload: str) -> None:
                nonlocal got
                super()._notice(channel, payload)
                got += 1
                if got >= NOTICES and not done.done():
                    done.set_result(None)

        receiving = asyncio.ensure_future(Counting(loop)._receive(conn.pgconn))
        await done
        receiving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await receiving
    used = cpu() - start
    os.waitpid(child, 0)
    await conn.close()
    return used / NOTICES


async def reads(
    games: list[tuple[str, int]], per_read: int, read: Callable[[dict[str, int]], Awaitable[Any]]
) -> float:
    """CPU seconds per read of ``per_read`` games' last two events, awaited on the event loop."""
    count = 2_000 // per_read
    start = cpu()
    for number in range(count):
        first = number * per_read % (len(games) - per_read)
        await read({game: version - 2 for game, version in games[first : first + per_read]})
    return (cpu() - start) / count


# The sixth pass's read: the news statement run in a stream thread through Django's connection.
THREAD_SQL = """
    SELECT g.id, g.status, g.version, g.roster, e.seq, e.type, e.seat, e.data, e.created_at, e.hash
    FROM unnest(%s::uuid[], %s::integer[]) AS w(game_id, after)
    JOIN games_game AS g ON g.id = w.game_id
    LEFT JOIN LATERAL (
        SELECT seq, type, seat, data, created_at, hash FROM games_event
        WHERE game_id = w.game_id AND seq > w.after ORDER BY seq LIMIT %s
    ) AS e ON true
    ORDER BY g.id, e.seq
"""


async def read_ways(dsn: str, games: list[tuple[str, int]]) -> None:
    """The news read in a stream thread (Django's connection, prepared: the sixth pass) against
    on the listening connection from the event loop (``Hub``'s own: the seventh)."""
    import uuid
    from concurrent.futures import ThreadPoolExecutor

    import psycopg
    from django.db import connection
    from psycopg.adapt import Transformer

    from streams import hub
    from unoservice import prepared as statements

    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=1)

    def in_thread(wanted: dict[str, int]) -> Any:
        ids = [uuid.UUID(i) for i in wanted]
        params = [ids, list(wanted.values()), hub.READ_LIMIT]
        return statements.run(connection, [(THREAD_SQL, params)])[0]

    async def thread_read(wanted: dict[str, int]) -> Any:
        return await loop.run_in_executor(executor, in_thread, wanted)

    conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    for statement in hub.news_setup():
        await conn.execute(statement)
    pgconn, transformer = conn.pgconn, Transformer(conn)
    answered: list[asyncio.Future[Any]] = []

    def readable() -> None:
        pgconn.consume_input()
        while answered and not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:
                answered.pop().set_result(None)
                return
            hub.news_of(transformer, result)

    async def loop_read(wanted: dict[str, int]) -> Any:
        answered.append(loop.create_future())
        hub.send_news_read(pgconn, wanted)
        pgconn.flush()
        await answered[-1]

    loop.add_reader(pgconn.socket, readable)
    try:
        for per_read in (1, 4):
            for name, way in (("stream thread", thread_read), ("listening conn.", loop_read)) * 2:
                used = await reads(games, per_read, way)
                print(f"read of {per_read} game(s), {name:<16} {used * 1e6:6.0f} us CPU")
    finally:
        loop.remove_reader(pgconn.socket)
        await conn.close()
        executor.shutdown()


async def writes() -> float:
    """CPU seconds per write of 300 bytes to one of ``SOCKETS`` loopback sockets."""
    loop = asyncio.get_running_loop()
    transports: list[asyncio.BaseTransport] = []

    class Accepted(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            transports.append(transport)

    server = await loop.create_server(Accepted, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    child = os.fork()
    if child == 0:

        async def hold() -> None:
            here = asyncio.get_running_loop()
            for _ in range(SOCKETS):
                await here.create_connection(asyncio.Protocol, "127.0.0.1", port)
            await asyncio.sleep(3600)

        asyncio.run(hold())
        os._exit(0)
    while len(transports) < SOCKETS:
        await asyncio.sleep(0.05)
    rounds, payload = 30, b"x" * 300
    start = cpu()
    for _ in range(rounds):
        for transport in transports:
            transport.write(payload)  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)
    used = cpu() - start
    os.kill(child, 9)
    os.waitpid(child, 0)
    server.close()
    return used / (rounds * SOCKETS)


def main() -> None:
    import uvloop

    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")
    import django

    django.setup()
    from games.models import Game

    dsn = f"postgresql://postgres@127.0.0.1:5432/{DB_NAME}"
    for way in ("notifies()", "reader callback") * 2:
        print(f"notice, {way:<16} {uvloop.run(notices(dsn, way)) * 1e6:6.1f} us CPU")

    games = [
        (str(g), v) for g, v in Game.objects.filter(version__gt=2).values_list("id", "version")
    ]
    if len(games) < 8:
        print("reads: no games; run bench/streams.py first")
    else:
        uvloop.run(read_ways(dsn, games))
    for _ in range(2):
        print(f"write of 300 bytes to a loopback socket {uvloop.run(writes()) * 1e6:6.1f} us CPU")


if __name__ == "__main__":
    main()
