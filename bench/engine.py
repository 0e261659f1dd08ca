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

Beside RLCard: with RLCard installed (``pip install -e '.[bench]'``; ``make bench`` does it), the
run ends with paired rounds of the 2-player line against RLCard's ``UnoGame``
(``rlcard.games.uno.game``, the well-known Python UNO engine for reinforcement learning: fewer
rules, no UNO calls, no challenges, no events) on the same loop: random legal 2-player play, a
card whenever one is listed (uniformly among the listed plays), else a draw. RLCard's game is one
round; a move is one ``step``, and its legal actions are those of the state ``step`` returns. It
runs as RLCard's environment runs it: one game object, seeded once as ``Env.seed`` seeds it, and
``init_game()`` for every round (as ``Env.reset``), not a new game and generator per round.
Each round times both for ``--pair-seconds``, in turn, the first one alternating from round to
round, so that a change in the machine's load weighs on both alike; the ratio is per round.
``--rounds 0`` leaves it out.

Before and after a change: ``--against DIR`` (a checkout of another commit, e.g. made with
``git archive BASE games | tar -x -C DIR``) runs paired rounds of this script's measurements with
that tree's ``games`` package and with this one, in turn, the first alternating: the 2-player
line (actions/s), ``replay`` of whole 2-player game logs, and a rebuild as
``games.projections.rebuild_game`` folds its rows (a fresh event dict per row, the data decoded
from JSON), both in events folded per second.

Behaviour: ``--hash`` prints a SHA-256 over about 1.3M seeded moves of several rule sets, 2 and
4 players and three bots (``behaviour_hash``); a speed-up must leave it unchanged (run it with the
other tree first on ``PYTHONPATH`` for the before).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import (
    COLORS,
    DECK,
    IllegalMove,
    Options,
    act,
    legal_actions,
    make_options,
    replay,
    start_game,
    view,
)
from games.engine.bots import choose

TARGET_ACTIONS_PER_SECOND = 60_000
# The aim of issue 13: twice RLCard's moves per second on the same loop.
TARGET_RLCARD_RATIO = 2.0
# The behaviour hash (``--hash``): moves per rule set, players and bot; a game cut at this many.
HASH_MOVES_PER_SET = 43_000
HASH_GAME_MOVES = 3_000

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


@dataclass(frozen=True)
class Timing:
    moves: int
    seconds: float  # wall clock
    cpu_seconds: float

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def cpu_rate(self) -> float:
        return self.moves / self.cpu_seconds if self.cpu_seconds else 0.0


def _timed(play: Callable[[int], int], seconds: float, first_seed: int) -> Timing:
    """Play whole games (``play(seed) -> moves``) for about ``seconds``."""
    moves = 0
    seed = first_seed
    cpu_start = time.process_time()
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or moves == 0:
        moves += play(seed)
        seed += 1
        elapsed = time.perf_counter() - start
    return Timing(moves, elapsed, time.process_time() - cpu_start)


def rlcard_game() -> Callable[[int], int] | None:
    """RLCard's game as its own environment runs it (``rlcard.envs.env.Env``): one ``UnoGame``,
    whose ``np_random`` (the dealer's shuffles and wild colours) the environment seeds once
    (``Env.seed``, ``rlcard.utils.seeding.np_random``), and ``init_game()`` for every round
    (``Env.reset``). Each call plays one round of eager random play, the choices drawn from
    ``seed``: its moves. None without RLCard."""
    try:
        from rlcard.games.uno.game import UnoGame
        from rlcard.utils.seeding import np_random
    except ImportError:
        return None
    game = UnoGame(num_players=2)
    game.np_random, _ = np_random(0)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state, _ = game.init_game()
        moves = 0
        while not game.is_over():
            plays = [a for a in state["legal_actions"] if a != "draw"]
            state, _ = game.step(rng.choice(plays) if plays else "draw")
            moves += 1
        return moves

    return play


def engine_game(target_score: int) -> Callable[[int], int]:
    """One game of the engine (to ``target_score``) of eager random play from ``seed``: its
    actions. The choice is written as RLCard's is (``choose`` with ``prefer_play=1`` picks the same
    actions with the same random numbers), so that both loops are the same but for the engine."""
    options = make_options({}, target_score=target_score)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = replay(start_game(2, options, seed))
        actions = 0
        while state.status == "active":
            seat = state.actor
            legal = legal_actions(state, seat)
            plays = [a for a in legal if a["action"] == "play"]
            _, state = act(state, seat, rng.choice(plays) if plays else rng.choice(legal))
            actions += 1
        return actions

    return play


def against_rlcard(rounds: int, seconds: float, target_score: int) -> list[tuple[Timing, Timing]]:
    """Paired rounds of (this engine, RLCard), the first to run alternating."""
    rl = rlcard_game()
    assert rl is not None
    ours = engine_game(target_score)
    pairs = []
    for index in range(rounds):
        seed = 1_000 * index
        if index % 2 == 0:
            mine = _timed(ours, seconds, seed)
            theirs = _timed(rl, seconds, seed)
        else:
            theirs = _timed(rl, seconds, seed)
            mine = _timed(ours, seconds, seed)
        pairs.append((mine, theirs))
    return pairs


def rlcard_table(pairs: list[tuple[Timing, Timing]]) -> str:
    header = (
        f"{'round':>5} {'engine actions/s':>17} {'RLCard moves/s':>15} {'ratio':>6} "
        f"{'ratio (cpu)':>11} {'cpu':>9}"
    )
    rows = [header, "-" * len(header)]
    for index, (mine, theirs) in enumerate(pairs, 1):
        rows.append(
            f"{index:>5} {mine.rate:>17,.0f} {theirs.rate:>15,.0f} "
            f"{mine.rate / theirs.rate:>6.2f} {mine.cpu_rate / theirs.cpu_rate:>11.2f} "
            f"{mine.cpu_seconds / mine.seconds:>4.0%} {theirs.cpu_seconds / theirs.seconds:>4.0%}"
        )
    return "\n".join(rows)


def fold_rates(seconds: float, target_score: int) -> dict[str, float]:
    """Events folded per CPU second and per second: ``replay`` of whole 2-player game logs, and a
    rebuild (a fresh dict per stored row, as ``rebuild_game`` reads them)."""
    options = make_options({}, target_score=target_score)
    logs = []
    for seed in range(8):
        rng = random.Random(seed)
        log = start_game(2, options, seed)
        state = replay(log)
        while state.status == "active":
            seat = state.actor
            new, state = act(state, seat, choose(rng, legal_actions(state, seat), prefer_play=1))
            log += new
        logs.append(log)
    rows = [json.loads(json.dumps(log)) for log in logs]
    rates: dict[str, float] = {}

    def fold_log(index: int) -> int:
        log = logs[index % len(logs)]
        replay(log)
        return len(log)

    def rebuild(index: int) -> int:
        stored = rows[index % len(rows)]
        replay({"type": r["type"], "seat": r["seat"], "data": r["data"]} for r in stored)
        return len(stored)

    for name, fold in (("replay", fold_log), ("rebuild", rebuild)):
        timing = _timed(fold, seconds, 0)
        rates[f"{name} events/s"] = timing.rate
        rates[f"{name} events/cpu-s"] = timing.cpu_rate
    return rates


def measurements(seconds: float, target_score: int) -> dict[str, float]:
    """What ``--against`` compares: the 2-player line and the folds."""
    timing = _timed(engine_game(target_score), seconds, 0)
    rates = {"actions/s": timing.rate, "actions/cpu-s": timing.cpu_rate}
    rates.update(fold_rates(seconds, target_score))
    return rates


def against(other: str, rounds: int, seconds: float, target_score: int) -> int:
    """Paired rounds of ``measurements`` in subprocesses: ``other``'s games package, then this
    one's (the first alternating); prints the rates and their ratios (this / other)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"before": os.path.abspath(other), "after": here}
    results: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for index in range(rounds):
        order = ("before", "after") if index % 2 == 0 else ("after", "before")
        for name in order:
            env = dict(os.environ, PYTHONPATH=trees[name])
            args = ["--measure", str(seconds), "--target-score", str(target_score)]
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), *args],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            results[name].append(json.loads(out.stdout))
    print(f"before: {trees['before']}; after: {trees['after']}; {rounds} paired rounds")
    header = f"{'measure':<22} {'before':>10} {'after':>10} {'ratio':>6}  per round"
    print(header)
    print("-" * len(header))
    for key in results["after"][0]:
        before = [r[key] for r in results["before"]]
        after = [r[key] for r in results["after"]]
        ratios = [a / b for a, b in zip(after, before, strict=True)]
        print(
            f"{key:<22} {statistics.median(before):>10,.0f} {statistics.median(after):>10,.0f} "
            f"{statistics.median(ratios):>6.2f}  {', '.join(f'{r:.2f}' for r in ratios)}"
        )
    print("(medians over the rounds; ratio: the median of the per-round ratios)")
    return 0


# --- the behaviour hash ---------------------------------------------------------------------

# The rule sets of the hash: official, every house rule, and sets that reach the paths the
# others leave (stacking with reverse_bounce, zero_swap with no_wild_finish and
# draw_until_playable, jump_in).
HASH_RULES: tuple[dict[str, Any], ...] = (
    {},
    ALL_HOUSE_RULES,
    {"stacking": True, "reverse_bounce": True},
    {"zero_swap": True, "no_wild_finish": True, "draw_until_playable": True},
    {"jump_in": True},
)
# Tries of actions the seat may or may not take (most are refused): each gives its events and
# state, or its error code.
_TRY_ACTIONS: tuple[str, ...] = ("play", "draw", "pass", "challenge", "accept", "color", "uno")


_ATOMS: frozenset[type] = frozenset({str, int, bool, float, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_CANON_OPTIONS: dict[Options, Any] = {}


def _canon(value: Any) -> Any:
    """A value as plain data, whatever classes hold it (a dataclass as its name and its fields in
    order, a set sorted): the same data gives the same ``repr`` however the classes store it."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple or kind is list:
        if value and all(type(v) is str for v in value):
            return tuple(value)
        return tuple(map(_canon, value))
    if kind is frozenset or kind is set:
        return ("set", tuple(sorted(value)))
    if kind is dict:
        return ("dict", tuple((k, _canon(v)) for k, v in value.items()))
    if kind is Options:
        known = _CANON_OPTIONS.get(value)
        if known is None:
            known = _CANON_OPTIONS[value] = _fields_canon(value)
        return known
    return _fields_canon(value)


def _fields_canon(value: Any) -> Any:
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value):
            raise TypeError(f"no canonical form for {kind.__name__}")
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    return (kind.__name__, tuple([(name, _canon(getattr(value, name))) for name in names]))


def behaviour_hash(moves_per_set: int, game_moves: int) -> tuple[str, int]:
    """A SHA-256 over seeded games of every rule set of ``HASH_RULES``, 2 and 4 players, and the
    eager, the 0.8 and the uniform bot, ``moves_per_set`` moves each (a game cut at
    ``game_moves``): every move's events and state, every seat's listing, one seat's view every
    tenth move, two sampled tries (mostly illegal: their error codes) and the replay of each
    game's log. Returns the hex digest and the moves made. Any change of behaviour changes it."""
    digest = hashlib.sha256()

    def put(value: Any) -> None:
        digest.update(repr(value).encode())
        digest.update(b"\n")

    total = 0
    for rules in HASH_RULES:
        options = make_options(rules, target_score=200)
        for players in (2, 4):
            for prefer in (1.0, 0.8, 0.0):
                moves = 0
                seed = 0
                while moves < moves_per_set:
                    rng = random.Random(seed)
                    tries = random.Random(-1 - seed)
                    log = start_game(players, options, seed)
                    put(log)
                    state = replay(log)
                    played = 0
                    while state.status == "active" and played < game_moves:
                        for seat in range(players):
                            put(legal_actions(state, seat))
                        if played % 10 == 0:
                            put(view(state, played % players))
                        for _ in range(2):
                            name = tries.choice(_TRY_ACTIONS)
                            trial: dict[str, Any] = {"action": name}
                            if name == "play":
                                trial["card"] = tries.choice(DECK)
                                if trial["card"].startswith("wild"):
                                    trial["color"] = tries.choice(COLORS)
                            elif name == "color":
                                trial["color"] = tries.choice(COLORS)
                            who = tries.randrange(players)
                            try:
                                tried, after = act(state, who, trial)
                            except IllegalMove as error:
                                put(("refused", who, trial, error.code))
                            else:
                                put(("took", who, trial, tried, _canon(after)))
                        seat = state.actor
                        action = choose(rng, legal_actions(state, seat), prefer_play=prefer)
                        new, state = act(state, seat, action)
                        log += new
                        put((seat, action, new))
                        put(_canon(state))
                        played += 1
                    put(_canon(replay(log)) == _canon(state))
                    moves += played
                    seed += 1
                total += moves
    return digest.hexdigest(), total


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
    parser.add_argument(
        "--rounds", type=int, default=5, help="paired rounds against RLCard (0: none)"
    )
    parser.add_argument(
        "--pair-seconds", type=float, default=2.0, help="time of each side of a paired round"
    )
    parser.add_argument("--bot", choices=("eager", "uniform"), default="eager")
    parser.add_argument(
        "--lines",
        default=",".join(line.name for line in LINES),
        help="comma-separated lines to run, of: " + ", ".join(line.name for line in LINES),
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="a tree holding another version of the games package: paired rounds, before/after",
    )
    parser.add_argument(
        "--hash",
        action="store_true",
        help="print the behaviour hash (seeded games of several rule sets; a speed-up keeps it)",
    )
    parser.add_argument("--measure", type=float, help=argparse.SUPPRESS)  # --against's child
    args = parser.parse_args(argv)
    if args.hash:
        digest, moves = behaviour_hash(HASH_MOVES_PER_SET, HASH_GAME_MOVES)
        print(f"behaviour hash over {moves:,} seeded moves: {digest}")
        return 0
    if args.measure is not None:
        print(json.dumps(measurements(args.measure, args.target_score)))
        return 0
    if args.against:
        return against(args.against, max(args.rounds, 1), args.pair_seconds, args.target_score)
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
    if args.rounds > 0:
        print()
        if rlcard_game() is None:
            print(
                "RLCard is not installed: `.venv/bin/pip install -e '.[bench]'` (or `make bench`) "
                "adds the line against RLCard's UnoGame."
            )
            return 0
        print(
            f"against RLCard's UnoGame, same loop (random legal 2-player play, a card whenever one "
            f"is listed): {args.rounds} paired rounds of ~{args.pair_seconds:g} s each side"
        )
        pairs = against_rlcard(args.rounds, args.pair_seconds, args.target_score)
        print(rlcard_table(pairs))
        print("cpu: CPU time over wall time, engine then RLCard; ratio (cpu): per CPU second")
        ratios = sorted(mine.rate / theirs.rate for mine, theirs in pairs)
        median = statistics.median(ratios)
        verdict = "met" if median >= TARGET_RLCARD_RATIO else "NOT met"
        print(
            f"target: {TARGET_RLCARD_RATIO:g}x RLCard's moves/s: {verdict} (median ratio "
            f"{median:.2f}, {ratios[0]:.2f} to {ratios[-1]:.2f} over {len(ratios)} rounds)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
