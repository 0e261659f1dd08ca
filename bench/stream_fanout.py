"""What one more stream of a game costs the server per action: actions played one at a time.

Run with ``.venv/bin/python bench/stream_fanout.py`` (``--streams``, ``--actions``). It makes the
database of ``bench/streams.py``, starts the Procfile's web process with one worker (so every
stream is in one process and each action is one read of the news), opens a number of streams on
one game (both seats and spectators), and plays ``--actions`` actions, each only once the last
one's events reached every stream: no batching, no queue, the same work for every action. For
each number of streams it prints the web process's and PostgreSQL's CPU time per action; the
difference between two numbers of streams, divided by it, is what one stream costs per action.
The numbers of streams run in turn, twice, so that a slower minute of the machine shows as a
difference between the two passes rather than between the numbers of streams.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("UNO_BENCH_DB", "unoservice_streams_bench")
os.environ.setdefault("UNO_BENCH_PORT", "8766")

from bench import service, streams  # noqa: E402


class Counted(streams.Watchers):
    """Watchers that wake the player once every stream has the seq it waits for."""

    def __init__(self) -> None:
        super().__init__()
        self.wanted: tuple[str, int, int] | None = None  # game, seq, streams
        self.reached = asyncio.Event()

    def arrived(self, game: str, seq: int) -> None:
        super().arrived(game, seq)
        wanted = self.wanted
        if wanted is None or (game, seq) != wanted[:2]:
            return
        if self.arrivals[(game, seq)][0] >= wanted[2]:
            self.reached.set()


async def one_count(
    http: streams.Http,
    game: streams.Game,
    other: streams.Game,
    spectators: list[str],
    count: int,
    idle: int,
    actions: int,
) -> tuple[float, float]:
    """Web and PostgreSQL CPU ms per action with ``count`` streams open on ``game`` and ``idle``
    on ``other``, which nobody plays."""
    watchers = Counted()
    tasks = await streams.open_streams([game], game.tokens, spectators, count, watchers)
    tasks += await streams.open_streams([other], other.tokens, spectators, idle, Counted())
    rng = random.Random(count)
    try:
        for _ in range(20):  # warm: the hub's game, the connections' prepared statements
            await play_one(http, game, watchers, count, rng)
        before = service.cpu_seconds(SERVER_PID)
        for _ in range(actions):
            await play_one(http, game, watchers, count, rng)
        after = service.cpu_seconds(SERVER_PID)
    finally:
        await streams.close_streams(tasks, [game, other])
    if watchers.errors:
        raise RuntimeError(f"{watchers.errors} gaps or repeats")
    web, postgres = ((after[part] - before[part]) / actions * 1000 for part in ("web", "postgres"))
    return web, postgres


async def play_one(
    http: streams.Http, game: streams.Game, watchers: Counted, count: int, rng: random.Random
) -> None:
    watchers.reached.clear()
    seq, _ = await streams.act(http, game, rng)
    if count:
        watchers.wanted = (game.id, seq, count)
        if watchers.arrivals.get((game.id, seq), [0])[0] < count:
            await asyncio.wait_for(watchers.reached.wait(), streams.SETTLE_TIMEOUT)


async def run(args: argparse.Namespace, tokens: list[str]) -> None:
    http = streams.Http()
    game = await streams.new_game(http, tokens[:2], seed=7)
    other = await streams.new_game(http, tokens[:2], seed=8)
    spectators = tokens[2:]
    # (streams on the game played, streams on the other game): each in turn, twice.
    setups = [(0, 0)] if not args.only else []
    setups += [(0, args.idle)] if args.idle else []
    setups += [(count, 0) for count in args.streams]
    results: dict[tuple[int, int], list[tuple[float, float]]] = {s: [] for s in setups}
    for _ in range(2):
        for count, idle in setups:
            results[(count, idle)].append(
                await one_count(http, game, other, spectators, count, idle, args.actions)
            )
    print(f"{args.actions} actions one at a time, each waiting for every stream; 1 worker")
    for (count, idle), passes in results.items():
        web = ", ".join(f"{w:.3f}" for w, _ in passes)
        pg = ", ".join(f"{p:.3f}" for _, p in passes)
        title = f"{count} watching" + (f", {idle} on another game" if idle else "")
        line = f"{title:>28}: CPU ms per action: web {web}; postgres {pg}"
        if count and results.get((0, 0)):
            base = [w for w, _ in results[(0, 0)]]
            extra = [(w - b) / count * 1000 for (w, _), b in zip(passes, base, strict=True)]
            line += "; web per stream " + ", ".join(f"{e:.1f}" for e in extra) + " us"
        print(line)


SERVER_PID = 0


def main() -> None:
    global SERVER_PID
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[10, 200])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--only", action="store_true", help="no pass with 0 streams (profiling)")
    parser.add_argument("--idle", type=int, default=0, help="streams on a game nobody plays")
    args = parser.parse_args()
    streams.harness.prepare_database(service.DB_NAME, service.environment())
    service.setup_bench()
    tokens = service.make_tokens(2 + max(args.streams))
    server = streams.start_server(1)
    SERVER_PID = server.pid
    try:
        uvloop.run(asyncio.wait_for(run(args, tokens), timeout=1800))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
