"""Pair a Swiss round of 10,000 players (games.pairing.swiss_tables) and report the time.

The players have played earlier rounds (``--history``, 3 by default) at tables of ``--size``
(4), each seated by the same function from standings drawn at random, so the round to pair must
steer around every meeting so far; ``--blocks`` (1,000) pairs of players keep apart (a block),
half of them neighbours in the standings the round pairs, whom it would otherwise seat together.
Target: under 2 s (docs/performance.md, "Tournaments").

    make bench-tournament            # or: python bench/tournament.py --players 10000 --size 4
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.pairing import kept_together, repeats, swiss_tables
from games.standings import Result, standings

TARGET_SECONDS = 2.0


def played(
    players: list[int], size: int, rounds: int, rng: random.Random
) -> tuple[dict[int, set[int]], list[Result]]:
    """Who met whom, and the tables' results (a random winner, the others tied), after
    ``rounds`` Swiss rounds, each paired from the standings of the rounds before."""
    met: dict[int, set[int]] = {p: set() for p in players}
    results: list[Result] = []
    order = players[:]
    rng.shuffle(order)
    for number in range(1, rounds + 1):
        for index, table in enumerate(swiss_tables(order, size, met), start=1):
            for player in table:
                met[player].update(p for p in table if p != player)
            winner = rng.randrange(len(table))
            places = tuple(1 if seat == winner else 2 for seat in range(len(table)))
            results.append(Result(number, index, 0, tuple(table), places, table[winner]))
        order = [row.player for row in standings("swiss", results, players, {})]
    return met, results


def kept_apart(order: list[int], count: int, rng: random.Random) -> dict[int, set[int]]:
    """``count`` blocks, each listed under both players: half between neighbours in ``order``,
    half between players drawn at random."""
    pairs = [(order[i], order[i + 1]) for i in rng.sample(range(len(order) - 1), count // 2)]
    for _ in range(count - count // 2):
        first, second = rng.sample(order, 2)
        pairs.append((first, second))
    apart: dict[int, set[int]] = {}
    for first, second in pairs:
        apart.setdefault(first, set()).add(second)
        apart.setdefault(second, set()).add(first)
    return apart


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--history", type=int, default=3)
    parser.add_argument("--blocks", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5, help="pairings timed; the median counts")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    met, results = played(players, args.size, args.history, rng)
    ratings = {p: rng.random() for p in players}
    ordered = [row.player for row in standings("swiss", results, players, ratings)]
    apart = kept_apart(ordered, args.blocks, rng)
    times, ranking = [], []
    tables: list[list[int]] = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        order = [row.player for row in standings("swiss", results, players, ratings)]
        ranked = time.perf_counter()
        tables = swiss_tables(order, args.size, met, apart)
        times.append(time.perf_counter() - start)
        ranking.append(ranked - start)
    ranking.sort()
    times.sort()
    median = times[len(times) // 2]
    seated = sorted(p for table in tables for p in table)
    assert seated == players, "everyone seated once"
    print(
        f"swiss round: {args.players:,} players at tables of {args.size} after "
        f"{args.history} rounds, {args.blocks:,} blocks: {len(tables):,} tables, "
        f"{repeats(tables, met)} repeat meetings, {kept_together(tables, apart)} blocked pairs"
    )
    print(
        f"standings + pairing: median {median:.3f} s, best {times[0]:.3f} s, worst "
        f"{times[-1]:.3f} s ({args.repeat} runs; target under {TARGET_SECONDS:.0f} s); of it the "
        f"standings {ranking[len(ranking) // 2]:.3f} s"
    )
    return 0 if median < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
