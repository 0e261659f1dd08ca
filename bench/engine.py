"""Benchmark of the pure rules engine: whole games of random legal play on one core.

Each line plays whole games (``start_game`` to ``game_ended``) with a random player: at each step
the seat to act (``state.actor``) picks one of ``legal_actions(state, seat)`` and the engine
decides it with ``act``. The bot's choice is part of the timed loop, as it is part of every move a
client makes (a view lists the legal actions).

Bots:

- ``eager`` (default): a card play whenever one is listed (chosen uniformly among the plays),
  otherwise any listed action. Hands stay the size they have in real games.
- ``uniform``: any listed action, uniformly. Drawing is as likely as playing, so hands grow large
  and rounds run to thousands of moves; with every house rule on, one game can take minutes.

Run ``.venv/bin/python bench/engine.py`` (``make bench``); ``--games N`` plays N games per line
instead of timing each line for ``--seconds``; ``--bot uniform`` changes the player; ``--lines``
picks lines (``2p,4p,house``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from games.engine import Options, act, legal_actions, make_options, replay, start_game
from games.engine.bots import choose

TARGET_ACTIONS_PER_SECOND = 60_000

# Every house rule on at once, with the official scoring and penalties (reverse_bounce needs
# stacking). Of each pair the rule book refuses, the first set's rule is on: seven_zero rather
# than zero_swap, no_action_finish rather than no_wild_finish.
ALL_HOUSE_RULES: dict[str, Any] = {
    "stacking": True,
    "reverse_bounce": True,
    "draw_until_playable": True,
    "force_play": True,
    "jump_in": True,
    "seven_zero": True,
    "multi_play": True,
    "no_action_finish": True,
    "elimination": True,
    "eight_again": True,
    "two_gives": True,
    "one_rotates": True,
    "zero_discards_color": True,
    "color_runs": True,
    "action_on_action": True,
    "must_play": True,
    "number_starter": True,
    "uno_auto_penalty": True,
}


@dataclass(frozen=True)
class Line:
    name: str
    label: str
    players: int
    rules: dict[str, Any]


@dataclass(frozen=True)
class Result:
    line: Line
    games: int
    actions: int
    events: int
    seconds: float  # wall clock (perf_counter)
    cpu_seconds: float  # this process's CPU time (process_time): below seconds when contended

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds


LINES = (
    Line("2p", "2 players, official", 2, {}),
    Line("4p", "4 players, official", 4, {}),
    Line("house", "4 players, all house rules", 4, ALL_HOUSE_RULES),
)


def play_game(players: int, options: Options, seed: int, eager: bool) -> tuple[int, int]:
    """Play one whole game; return how many actions and events it took."""
    rng = random.Random(seed)
    log = start_game(players, options, seed)
    state = replay(log)
    events = len(log)
    actions = 0
    while state.status == "active":
        seat = state.actor
        action = choose(rng, legal_actions(state, seat), prefer_play=1 if eager else 0)
        new, state = act(state, seat, action)
        events += len(new)
        actions += 1
    return actions, events


def run_line(
    line: Line, target_score: int, games: int | None, seconds: float, eager: bool
) -> Result:
    options = make_options(line.rules, target_score=target_score)
    played = actions = events = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    elapsed = 0.0
    while (played < games) if games is not None else (elapsed < seconds or played == 0):
        game_actions, game_events = play_game(line.players, options, played, eager)
        played += 1
        actions += game_actions
        events += game_events
        elapsed = time.perf_counter() - start
    return Result(line, played, actions, events, elapsed, time.process_time() - cpu_start)


def processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for row in cpuinfo:
                if row.startswith("model name"):
                    return row.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def machine() -> str:
    return (
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs (one used), "
        f"{processor()}"
    )


def table(results: list[Result]) -> str:
    header = (
        f"{'line':<28} {'games':>6} {'actions':>9} {'events':>9} {'seconds':>8} "
        f"{'games/s':>8} {'actions/s':>10} {'events/s':>10} {'actions/game':>13} {'cpu':>5}"
    )
    rows = [header, "-" * len(header)]
    for r in results:
        rows.append(
            f"{r.line.label:<28} {r.games:>6} {r.actions:>9} {r.events:>9} {r.seconds:>8.2f} "
            f"{r.games_per_second:>8.2f} {r.actions_per_second:>10,.0f} "
            f"{r.events_per_second:>10,.0f} {r.actions / r.games:>13,.0f} "
            f"{r.cpu_seconds / r.seconds:>5.0%}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=None, help="games per line (default: timed)")
    parser.add_argument(
        "--seconds", type=float, default=6.0, help="time per line when --games is not given"
    )
    parser.add_argument("--target-score", type=int, default=500, help="points to win a game")
    parser.add_argument("--bot", choices=("eager", "uniform"), default="eager")
    parser.add_argument(
        "--lines",
        default=",".join(line.name for line in LINES),
        help="comma-separated lines to run, of: " + ", ".join(line.name for line in LINES),
    )
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    names = [name.strip() for name in args.lines.split(",") if name.strip()]
    lines = [line for line in LINES if line.name in names]
    if not lines or len(lines) != len(set(names)):
        parser.error(f"--lines takes names among {', '.join(line.name for line in LINES)}")

    print(f"UNO rules engine benchmark: {machine()}")
    print(
        f"bot: {args.bot} random legal play; target score {args.target_score}; seeds 0, 1, 2, ...; "
        + (f"{args.games} games per line" if args.games else f"~{args.seconds:g} s per line")
    )
    if any(line.rules for line in lines):
        print(f"all house rules: {', '.join(ALL_HOUSE_RULES)} (winner scoring)")
    print()
    results: list[Result] = []
    for line in lines:
        results.append(
            run_line(line, args.target_score, args.games, args.seconds, args.bot == "eager")
        )
    print(table(results))
    print("cpu: CPU time over wall time; well below 100% means other processes shared the core")
    print()
    for result in results:
        if result.line.name == "2p":
            rate = result.actions_per_second
            verdict = "met" if rate >= TARGET_ACTIONS_PER_SECOND else "NOT met"
            print(
                f"target: {TARGET_ACTIONS_PER_SECOND:,} actions/s for 2-player official games: "
                f"{verdict} ({rate:,.0f} actions/s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
