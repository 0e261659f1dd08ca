"""Benchmark of the bot levels: win rates per round, with 95% confidence intervals, and the
search bot's think time.

A line plays ``--rounds`` single rounds (a round is won by the seat that goes out) between bot
levels on the engine alone (no service). Each deal is played once with the measured level in
every seat (two-player: the seats alternate on the same deal; four-player: its seat moves round
the table), which takes the luck of the deal out of the comparison.
Every seat moves as in the service (``bots.next_move``): a bot off its turn that acts (UNO, a
catch, a jump in) first, else the seat to act. The interval is
Wilson's. The search bot keeps its default budget (``strong.BUDGET``) unless ``--budget`` says
otherwise; its think time is the wall time of each of its decisions, lone choices included.

Run ``.venv/bin/python bench/bots.py`` (``--rounds N``, ``--jobs N`` processes, ``--lines``
names from ``LINES``, ``--budget S``). Figures are in ``docs/bots.md``.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import platform
import random
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from games.engine import act, make_options, replay, start_game
from games.engine.bots import LEVELS, Action, Bot, next_move, strong
from games.engine.events import Event

Times = list[tuple[float, float]]  # (wall, CPU) seconds of each decision of the strong seat
HOUSE: dict[str, Any] = {"stacking": True, "jump_in": True, "seven_zero": True}


@dataclass(frozen=True)
class Line:
    name: str
    levels: tuple[str, ...]  # the measured level first
    rules: dict[str, Any]
    chance: float  # the win rate of a level no better than the others


LINES: dict[str, Line] = {
    line.name: line
    for line in (
        Line("basic-random", ("basic", "random"), {}, 0.5),
        Line("strong-basic", ("strong", "basic"), {}, 0.5),
        Line("strong-random", ("strong", "random"), {}, 0.5),
        Line("4p-strong-basic", ("strong", "basic", "basic", "basic"), {}, 0.25),
        Line("house-basic-random", ("basic", "random"), HOUSE, 0.5),
        Line("house-strong-basic", ("strong", "basic"), HOUSE, 0.5),
        Line("house-4p-strong-basic", ("strong", "basic", "basic", "basic"), HOUSE, 0.25),
    )
}
DEFAULT_LINES = "basic-random,strong-basic,4p-strong-basic,house-basic-random,house-strong-basic"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@dataclass(frozen=True)
class Search:
    """How the strong level thinks in a run: its budget (None: ``strong.BUDGET``), a cap on its
    worlds (None: ``strong.ITERATIONS``), and whether the budget counts CPU time."""

    budget: float | None = None
    iterations: int | None = None
    cpu: bool = False


def _bot(level: str, search: Search) -> Bot:
    if level == "strong":
        clock = time.thread_time if search.cpu else None
        return functools.partial(
            strong.decide, budget=search.budget, iterations=search.iterations, clock=clock
        )
    return LEVELS[level]


def _timed(bot: Bot, times: Times) -> Bot:
    """``bot``, its every decision's wall time and CPU time added to ``times``."""

    def timed(
        rng: random.Random, seen: Mapping[str, Any], events: Sequence[Event]
    ) -> Action | None:
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return bot(rng, seen, events)
        finally:
            times.append((time.perf_counter() - started, time.thread_time() - cpu))

    return timed


def play_round(line: Line, index: int, search: Search) -> tuple[bool, Times, int]:
    """Round ``index`` of ``line``: whether the measured level won, its think times, moves."""
    players = len(line.levels)
    shift = index % players  # the measured level sits at seat ``shift``
    seats = [line.levels[(s - shift) % players] for s in range(players)]
    bots = [_bot(level, search) for level in seats]
    seed = 1_000_003 * (index // players) + 17  # each deal once per seat of the measured level
    log = start_game(players, make_options(line.rules, target_score=10**6), seed)
    state = replay(log)
    rngs = [random.Random(seed + s) for s in range(players)]
    thinking: Times = []
    table = [
        _timed(bot, thinking) if level == "strong" else bot
        for bot, level in zip(bots, seats, strict=True)
    ]
    moves = 0
    while state.last_round is None:
        move = next_move(table, rngs, state, log)
        assert move is not None  # every seat is a bot's
        events, state = act(state, *move)
        log += events
        moves += 1
    return state.last_round.winner_seat == shift, thinking, moves


def _chunk(args: tuple[str, int, int, Search]) -> tuple[int, int, Times, int]:
    name, start, stop, search = args
    wins, thinking, moves = 0, [], 0
    for index in range(start, stop):
        won, times, count = play_round(LINES[name], index, search)
        wins += won
        thinking += times
        moves += count
    return wins, stop - start, thinking, moves


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run_line(name: str, rounds: int, jobs: int, search: Search) -> str:
    line = LINES[name]
    step = max(1, rounds // (jobs * 8))
    chunks = [(name, i, min(i + step, rounds), search) for i in range(0, rounds, step)]
    started = time.perf_counter()
    wins = n = moves = 0
    thinking: Times = []
    with ProcessPoolExecutor(jobs) as pool:
        for w, count, times, m in pool.map(_chunk, chunks):
            wins += w
            n += count
            thinking += times
            moves += m
    low, high = wilson(wins, n)
    rules = "house" if line.rules else "official"
    text = (
        f"{name:24} {' v '.join(line.levels):28} {rules:8} rounds {n:5}  "
        f"win {wins / n:6.1%}  95% CI [{low:5.1%}, {high:5.1%}]  chance {line.chance:.0%}"
    )
    if thinking:
        wall = [w for w, _ in thinking]
        cpu = [c for _, c in thinking]
        text += (
            f"  think p50/p99 wall {percentile(wall, 0.5) * 1000:.1f}/"
            f"{percentile(wall, 0.99) * 1000:.1f} ms"
            f" CPU {percentile(cpu, 0.5) * 1000:.1f}/{percentile(cpu, 0.99) * 1000:.1f} ms"
        )
    text += f"  ({moves / n:.0f} moves/round, {time.perf_counter() - started:.0f} s)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--lines", default=DEFAULT_LINES)
    parser.add_argument("--budget", type=float, default=None, help="strong's seconds per move")
    parser.add_argument(
        "--budgets",
        default=None,
        help="a sweep: comma-separated budgets in seconds, each line run at each (e.g. 0.01,0.03)",
    )
    parser.add_argument("--iterations", type=int, default=None, help="strong's worlds at most")
    parser.add_argument(
        "--cpu", action="store_true", help="count strong's budget in its CPU time, not wall time"
    )
    args = parser.parse_args(argv)
    budgets = [float(b) for b in args.budgets.split(",")] if args.budgets else [args.budget]
    iterations = args.iterations if args.iterations is not None else strong.ITERATIONS
    print(
        f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"{args.jobs} processes, {args.rounds} rounds a line, strong iterations <= {iterations}, "
        f"budget by {'CPU time' if args.cpu else 'wall clock'}",
        flush=True,
    )
    for budget in budgets:
        search = Search(budget, args.iterations, args.cpu)
        shown = budget if budget is not None else strong.BUDGET
        for name in args.lines.split(","):
            line = run_line(name, args.rounds, args.jobs, search)
            print(f"{shown * 1000:4.0f} ms  {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
