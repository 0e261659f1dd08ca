"""Streams benchmark: thousands of open game streams on one machine, over loopback.

Run with ``.venv/bin/python bench/streams.py`` (``--streams``, ``--games``, ``--seconds``). It makes
a database of its own (``UNO_BENCH_DB``, by default ``unoservice_streams_bench``), starts the
Procfile's web process (gunicorn with uvicorn workers, ``unoservice.gunicorn_asgi``) on loopback
(``UNO_BENCH_PORT``) and drives it from one asyncio process:

- ``--games`` 2-player games, each played by one of ``--clients`` actor tasks over keep-alive
  connections (random legal actions, folded locally through the engine as in bench/service.py);
- ``--streams`` open game streams spread evenly over those games (both seats and spectators),
  or over as many other games, which nobody plays during the run.

In rounds it measures the REST action's throughput with no stream open; opens the streams on the
games nobody plays (the server's memory before and after gives the memory per open stream) and
measures it again; then moves the streams to the played games, paces actions at
``--rate`` per second to time each action's last event from the action's HTTP answer to its arrival
on every stream of that game, measures the throughput again with every stream open (and watching),
and closes the streams. Every stream checks it receives each event once, in order. It stops by
itself: every phase is bounded, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("UNO_BENCH_DB", "unoservice_streams_bench")
os.environ.setdefault("UNO_BENCH_PORT", "8766")

from bench import harness, service  # noqa: E402
from games import engine  # noqa: E402

HOST, PORT = harness.HOST, service.PORT
EVENT_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)
RETRY = re.compile(rb"^retry: (\d+)$", re.MULTILINE)
OPEN_TIMEOUT = 120.0  # seconds to open every stream
SETTLE_TIMEOUT = 30.0  # seconds for the last events to reach every stream


def percentile(samples: list[float], q: float) -> float:
    return service.percentile(samples, q)


# --- a small HTTP/1.1 client on asyncio streams -------------------------------------------------


class Http:
    """One keep-alive connection."""

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        try:
            return await self._call(method, path, token, body)
        except (OSError, IndexError, asyncio.IncompleteReadError):
            # The server closed an idle keep-alive connection (uvicorn: after 5 s): once more.
            self.close()
            return await self._call(method, path, token, body)

    async def connect(self) -> int:
        """Open the connection if it is not open; its local port."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, PORT)
        return int(self.writer.get_extra_info("sockname")[1])

    async def _call(self, method: str, path: str, token: str, body: Any) -> tuple[int, Any]:
        await self.connect()
        assert self.reader is not None and self.writer is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length)
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@dataclass
class Game:
    id: str
    tokens: list[str]
    state: engine.GameState
    version: int
    streams: int = 0


async def new_game(http: Http, tokens: list[str], seed: int) -> Game:
    rules: dict[str, Any] = {}
    settings = {"max_players": 2, "target_score": 10**6, "seed": seed, "rules": rules}
    status, body = await http.call("POST", "/api/v1/games/", tokens[0], settings)
    assert status == 201, body
    status, body = await http.call("POST", f"/api/v1/games/{body['id']}/join/", tokens[1])
    assert status == 200 and body["status"] == "active", body
    options = engine.make_options(rules, target_score=10**6)
    events = engine.start_game(2, options, seed, salt=harness.BENCH_SALT)
    return Game(body["id"], tokens, engine.replay(events), len(events))


async def act(http: Http, game: Game, rng: random.Random) -> tuple[int, float]:
    """One random legal action: the seq of its last event and when its answer arrived."""
    seat = game.state.actor
    action = rng.choice(engine.legal_actions(game.state, seat))
    status, body = await http.call(
        "POST", f"/api/v1/games/{game.id}/actions/", game.tokens[seat], action
    )
    answered = time.perf_counter()
    if status != 200:
        raise RuntimeError(f"action refused: {status} {body}")
    events, game.state = engine.act(game.state, seat, action)
    game.version += len(events)
    if body["version"] != game.version:
        raise RuntimeError("the server and the local engine disagree")
    return game.version, answered


# --- streams ------------------------------------------------------------------------------------


@dataclass
class Watchers:
    """What every stream received: per (game, seq), how many streams and the latest arrival."""

    arrivals: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    errors: int = 0
    frames: int = 0
    reconnections: int = 0  # streams that ended or dropped and were opened again

    def arrived(self, game: str, seq: int) -> None:
        now = time.perf_counter()
        entry = self.arrivals.get((game, seq))
        if entry is None:
            self.arrivals[(game, seq)] = [1, now]
        else:
            entry[0] += 1
            entry[1] = now
        self.frames += 1


async def watch(game: Game, token: str, watchers: Watchers, opened: asyncio.Event) -> None:
    """One open game stream, from the game's current version on, until cancelled. Like a
    browser's ``EventSource``, it reconnects with ``Last-Event-ID`` when the stream ends or drops
    (after the ``retry`` the server last asked for)."""
    last: int | None = None
    retry = 2.0
    while True:
        with contextlib.suppress(OSError):  # the server refused the connection
            last, retry = await _follow(game, token, watchers, opened, last, retry)
        watchers.reconnections += 1
        await asyncio.sleep(retry)


async def _follow(
    game: Game,
    token: str,
    watchers: Watchers,
    opened: asyncio.Event,
    last: int | None,
    retry: float,
) -> tuple[int | None, float]:
    """One connection of ``watch``: the last id and ``retry`` seen when it ended."""
    loop = asyncio.get_running_loop()
    receiver = Receiver(game.id, watchers, opened, last, retry)
    transport, _ = await loop.create_connection(lambda: receiver, HOST, PORT)
    try:
        resume = "" if last is None else f"Last-Event-ID: {last}\r\n"
        request = (
            f"GET /api/v1/games/{game.id}/stream/ HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Authorization: Token {token}\r\nAccept: text/event-stream\r\n{resume}\r\n"
        )
        transport.write(request.encode())
        await receiver.ended
    finally:
        transport.close()
    return receiver.last, receiver.retry


class Receiver(asyncio.Protocol):
    """One stream's bytes, parsed as they arrive (HTTP head, chunks, SSE ids), with no task
    woken per chunk: the watchers share the cores with the server, so they cost as little as a
    client can."""

    def __init__(
        self,
        game_id: str,
        watchers: Watchers,
        opened: asyncio.Event,
        last: int | None,
        retry: float,
    ) -> None:
        self.game_id, self.watchers, self.opened = game_id, watchers, opened
        self.last, self.retry = last, retry
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buffer = b""
        self.head = True

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        if self.head:
            head, found, buffer = buffer.partition(b"\r\n\r\n")
            if not found:
                self.buffer = head
                return
            self.head = False
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.watchers.errors += 1
                self._end()
                return
        while (line := buffer.find(b"\r\n")) >= 0:
            try:
                size = int(buffer[:line].split(b";")[0], 16)
            except ValueError:  # not HTTP chunking: counted, and the stream is opened again
                self.watchers.errors += 1
                self._end()
                return
            if size == 0:
                self._end()
                return
            end = line + 2 + size
            if len(buffer) < end + 2:
                break
            self._chunk(buffer[line + 2 : end])
            buffer = buffer[end + 2 :]
        self.buffer = buffer

    def _chunk(self, chunk: bytes) -> None:
        self.opened.set()  # the first chunk (``retry``) comes after the stream subscribed
        last = self.last
        for seq in map(int, EVENT_ID.findall(chunk)):
            if last is not None and seq != last + 1:
                self.watchers.errors += 1  # a gap or a repeat
            last = seq
            self.watchers.arrived(self.game_id, seq)
        self.last = last
        hint = RETRY.search(chunk)
        if hint is not None:
            self.retry = int(hint[1]) / 1000

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()

    def _end(self) -> None:
        if not self.ended.done():
            self.ended.set_result(None)


async def open_streams(
    games: list[Game], tokens: list[str], spectators: list[str], count: int, watchers: Watchers
) -> list[asyncio.Task[None]]:
    tasks, gates = [], []
    for number in range(count):
        game = games[number % len(games)]
        seat = game.streams
        token = game.tokens[seat] if seat < 2 else spectators[number % len(spectators)]
        game.streams += 1
        gate = asyncio.Event()
        gates.append(gate)
        tasks.append(asyncio.create_task(watch(game, token, watchers, gate)))
        if number % 100 == 99:
            await asyncio.sleep(0)  # let the connections go out in waves
    await asyncio.wait_for(asyncio.gather(*(g.wait() for g in gates)), OPEN_TIMEOUT)
    return tasks


async def close_streams(tasks: list[asyncio.Task[None]], games: list[Game]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for game in games:
        game.streams = 0


# --- load ---------------------------------------------------------------------------------------


@dataclass
class Played:
    actions: list[tuple[str, int, float]] = field(default_factory=list)  # game, last seq, answer
    latencies: list[float] = field(default_factory=list)  # HTTP round trips
    errors: int = 0


def worker_of_ports() -> dict[int, int]:
    """The server's process (pid) holding each client connection, by the client's port."""
    listed = subprocess.run(
        ["ss", "-tnpH", "state", "established", f"( sport = :{PORT} )"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {
        int(port): int(pid)
        for port, pid in re.findall(r":\d+\s+\S+:(\d+)\s+users:\(\(\S+?pid=(\d+)", listed)
    }


async def place_evenly(https: list[Http], workers: int) -> None:
    """Open every client's keep-alive connection, with as many on each worker as on any other
    (give or take one), closing and opening again those on the fullest worker until they are.

    The workers race to accept, and one awake when the clients connect takes most of them (12
    and 4, or 15 and 1, were seen): a worker holding most of the 16 clients is one core's worth
    of Python for them, and each phase's throughput swung by up to a tenth with that placement.
    The many clients of a real server spread over its workers; here, 16 must be placed."""
    for _ in range(200):
        ports = [await http.connect() for http in https]
        await asyncio.sleep(0.01)  # until the server has accepted them
        holder = worker_of_ports()
        placed: dict[int, list[Http]] = {}
        for http, port in zip(https, ports, strict=True):
            if port in holder:
                placed.setdefault(holder[port], []).append(http)
            else:
                http.close()  # the server closed it (idle keep-alive): open it again
        counts = sorted(len(group) for group in placed.values())
        if len(placed) == workers and sum(counts) == len(https) and counts[-1] - counts[0] <= 1:
            return
        if placed:
            max(placed.values(), key=len)[0].close()
    raise RuntimeError("the action clients' connections could not be spread over the workers")


async def drive(
    owned: list[list[Game]],
    https: list[Http],
    seconds: float,
    rate: float | None,
    seed: int,
    workers: int,
) -> tuple[Played, float]:
    """Each client plays its games in turn for ``seconds``: as fast as it can, or at ``rate``
    actions per second in all."""
    await place_evenly(https, workers)
    played = Played()
    stop = time.perf_counter() + seconds
    gap = None if rate is None else len(owned) / rate

    async def client(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        games, http = owned[index], https[index]
        turn = 0
        next_at = time.perf_counter() + (0 if gap is None else rng.random() * gap)
        while time.perf_counter() < stop:
            if gap is not None:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at += gap
            game = games[turn % len(games)]
            turn += 1
            if game.state.status != "active":
                continue
            try:
                started = time.perf_counter()
                seq, answered = await act(http, game, rng)
            except Exception as error:
                played.errors += 1
                print(f"client {index}: {error}", file=sys.stderr)
                http.close()
                continue
            played.actions.append((game.id, seq, answered))
            played.latencies.append(answered - started)

    began = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(len(owned))))
    return played, time.perf_counter() - began


def delivery(played: Played, games: dict[str, Game], watchers: Watchers) -> tuple[list[float], int]:
    """Per action, from its answer to its last event on the last of its game's streams."""
    latencies, missing = [], 0
    for game_id, seq, answered in played.actions:
        entry = watchers.arrivals.get((game_id, seq))
        if entry is None or entry[0] < games[game_id].streams:
            missing += 1
            continue
        latencies.append(max(0.0, entry[1] - answered))
    return latencies, missing


async def settle(played: Played, games: dict[str, Game], watchers: Watchers) -> None:
    """Wait (bounded) until every event of the actions played reached every stream."""
    deadline = time.perf_counter() + SETTLE_TIMEOUT
    while time.perf_counter() < deadline and delivery(played, games, watchers)[1]:
        await asyncio.sleep(0.05)


async def alternate(
    args: argparse.Namespace,
    owned: list[list[Game]],
    https: list[Http],
    games: dict[str, Game],
    tokens: tuple[list[str], list[str]],
    number: int,
    totals: dict[str, list[Any]],
    server_pid: int,
) -> tuple[int, int]:
    """Short slices of actions flat out with no stream open and with the streams open on the
    played games, in turn (the streams opened before and closed after each watched slice): both
    sample the same minutes of a shared machine, whose speed drifts from one 10 s phase to the
    next by as much as feeding the streams costs. A watched slice lasts until its events reached
    every stream. The errors and reconnections seen."""
    errors = reconnections = 0
    tally: dict[str, list[Any]] = {"without": [0, 0.0], "with": [0, 0.0]}
    used: dict[str, dict[str, float]] = {"without": {}, "with": {}}  # CPU seconds, by part
    played = list(games.values())
    for part in range(args.slices):
        for kind in ("without", "with"):
            seed = 1000 * number + 10 * part + (kind == "with")
            if kind == "without":
                cpu = Cpu.read(server_pid)
                actions, seconds = await drive(
                    owned, https, args.slice_seconds, None, seed=seed, workers=args.workers
                )
                after = Cpu.read(server_pid)
            else:
                watchers = Watchers()
                tasks = await open_streams(played, *tokens, args.streams, watchers)
                await asyncio.sleep(1)  # the server settles (buffers, the listener)
                cpu = Cpu.read(server_pid)
                actions, seconds = await drive(
                    owned, https, args.slice_seconds, None, seed=seed, workers=args.workers
                )
                # The deliveries still queued when the slice ends are its work too: the time
                # until they arrive counts as the slice's (as if nothing else could be done).
                settling = time.perf_counter()
                await settle(actions, games, watchers)
                seconds += time.perf_counter() - settling
                after = Cpu.read(server_pid)
                errors += delivery(actions, games, watchers)[1] + watchers.errors
                reconnections += watchers.reconnections
                await close_streams(tasks, played)
                await asyncio.sleep(1.5)  # the server ends its streams before the next slice
            errors += actions.errors
            for counts in (tally[kind], totals[kind]):
                counts[0] += len(actions.actions)
                counts[1] += seconds
            for name, total in after.parts.items():
                used[kind][name] = used[kind].get(name, 0.0) + total - cpu.parts[name]
    (done, spent), (watched, busy) = tally["without"], tally["with"]
    print(
        f"round {number}: alternating, no stream {done / spent:8.1f}/s, streams watching "
        f"{watched / busy:8.1f}/s ({watched / busy / (done / spent) - 1:+.0%})"
    )
    for kind, title in (("without", "no stream"), ("with", "watching")):
        parts = ", ".join(
            f"{part} {seconds / max(tally[kind][0], 1) * 1000:.2f}"
            for part, seconds in used[kind].items()
        )
        print(f"{'':<34} CPU ms per action, {title}: {parts}")
    return errors, reconnections


# --- the server ---------------------------------------------------------------------------------


def server_memory(pid: int) -> int:
    """Resident memory of the server and its workers, in bytes."""
    total = 0
    for process in (pid, *harness.children(pid)):
        try:
            with open(f"/proc/{process}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            continue  # gone meanwhile
    return total


def start_server(workers: int) -> subprocess.Popen[bytes]:
    os.environ["UNO_STREAM_KEEPALIVE"] = "15"
    return service.start_server(workers, "asgi")


def line(name: str, count: int, seconds: float, samples: Iterable[float]) -> str:
    values = list(samples)
    return (
        f"{name:<34} {count:>7} in {seconds:5.1f} s = {count / seconds:8.1f}/s  "
        f"p50 {percentile(values, 0.5) * 1000:7.2f} ms  "
        f"p99 {percentile(values, 0.99) * 1000:7.2f} ms"
    )


@dataclass(frozen=True)
class Cpu:
    """CPU time used so far: by part (web, postgres, client), and by each web worker."""

    parts: dict[str, float]
    workers: dict[int, float]

    @classmethod
    def read(cls, server_pid: int) -> Cpu:
        return cls(service.cpu_seconds(server_pid), service.worker_seconds(server_pid))


def cpu_line(before: Cpu, after: Cpu, actions: int) -> str:
    """CPU time per action of the server, PostgreSQL and this client (streams included), and how
    the web's was shared between the workers."""
    parts = ", ".join(
        f"{part} {(after.parts[part] - before.parts[part]) / max(actions, 1) * 1000:.2f}"
        for part in before.parts
    )
    shares = service.worker_shares(before.workers, after.workers)
    return f"{'':<34} CPU ms per action: {parts}; workers {shares}"


async def run(args: argparse.Namespace, tokens: list[str], server_pid: int) -> None:
    players, spectators = tokens[: 2 * args.clients], tokens[2 * args.clients :]
    https = [Http() for _ in range(args.clients)]
    owned: list[list[Game]] = [[] for _ in range(args.clients)]
    for number in range(args.games):
        index = number % args.clients
        pair = players[2 * index : 2 * index + 2]
        owned[index].append(await new_game(https[index], pair, seed=number))
    games = {game.id: game for group in owned for game in group}
    # Games nobody plays during the run: streams that watch them cost only being open.
    quiet = [
        await new_game(https[n % args.clients], players[:2], seed=10**5 + n)
        for n in range(args.games)
    ]
    print(
        f"{args.streams} streams over {args.games} games ({args.streams // args.games} each: "
        f"2 seats, the rest spectators), {args.clients} action clients, {args.workers} workers, "
        f"{os.cpu_count()} cores"
    )
    without_all, with_all, idle_all = [0, 0.0], [0, 0.0], [0, 0.0]
    alternating = {"without": [0, 0.0], "with": [0, 0.0]}
    paced_latencies: list[float] = []
    loaded_latencies: list[float] = []
    memory: list[float] = []
    errors = reconnections = 0
    for number in range(1, args.rounds + 1):
        cpu = Cpu.read(server_pid)
        alone, seconds = await drive(
            owned, https, args.seconds, None, seed=number, workers=args.workers
        )
        print(
            line(
                f"round {number}: actions, no stream", len(alone.actions), seconds, alone.latencies
            )
        )
        print(cpu_line(cpu, Cpu.read(server_pid), len(alone.actions)))
        without_all[0] += len(alone.actions)
        without_all[1] += seconds

        watchers = Watchers()
        before = server_memory(server_pid)
        opening = time.perf_counter()
        tasks = await open_streams(quiet, players, spectators, args.streams, watchers)
        opened_in = time.perf_counter() - opening
        await asyncio.sleep(2)  # the server settles (buffers, the listener) before measuring
        grown = server_memory(server_pid) - before
        memory.append(grown / args.streams)
        print(
            f"round {number}: {args.streams} streams open in {opened_in:.1f} s; server memory "
            f"+{grown / 2**20:.1f} MiB = {grown / args.streams / 1024:.1f} KiB per stream"
        )
        cpu = Cpu.read(server_pid)
        idle, seconds = await drive(
            owned, https, args.seconds, None, seed=300 + number, workers=args.workers
        )
        title = f"round {number}: actions, streams on others"
        print(line(title, len(idle.actions), seconds, idle.latencies))
        print(cpu_line(cpu, Cpu.read(server_pid), len(idle.actions)))
        idle_all[0] += len(idle.actions)
        idle_all[1] += seconds
        errors += idle.errors
        await close_streams(tasks, quiet)
        played = list(games.values())
        tasks = await open_streams(played, players, spectators, args.streams, watchers)

        cpu = Cpu.read(server_pid)
        paced, seconds = await drive(
            owned, https, args.seconds, args.rate, seed=100 + number, workers=args.workers
        )
        used = Cpu.read(server_pid)
        await settle(paced, games, watchers)
        latencies, missing = delivery(paced, games, watchers)
        paced_latencies += latencies
        print(
            line(f"round {number}: paced, to every stream", len(latencies), seconds, latencies)
            + f"  missing {missing}"
        )
        print(cpu_line(cpu, used, len(paced.actions)))

        cpu = Cpu.read(server_pid)
        loaded, seconds = await drive(
            owned, https, args.seconds, None, seed=200 + number, workers=args.workers
        )
        used = Cpu.read(server_pid)
        await settle(loaded, games, watchers)
        latencies, missing = delivery(loaded, games, watchers)
        loaded_latencies += latencies
        print(
            line(
                f"round {number}: actions, streams open",
                len(loaded.actions),
                seconds,
                loaded.latencies,
            )
        )
        print(cpu_line(cpu, used, len(loaded.actions)))
        print(
            line(f"round {number}: … to every stream", len(latencies), seconds, latencies)
            + f"  missing {missing}"
        )
        with_all[0] += len(loaded.actions)
        with_all[1] += seconds
        errors += watchers.errors + alone.errors + paced.errors + loaded.errors + missing
        reconnections += watchers.reconnections
        await close_streams(tasks, list(games.values()))
        await asyncio.sleep(1)
        if args.slices:
            seen = await alternate(
                args, owned, https, games, (players, spectators), number, alternating, server_pid
            )
            errors += seen[0]
            reconnections += seen[1]

    rate_without = without_all[0] / without_all[1]
    rate_with = with_all[0] / with_all[1]
    rate_idle = idle_all[0] / idle_all[1]
    print(f"all {args.rounds} rounds:")
    print(
        f"action throughput: {rate_without:.1f}/s with no stream, {rate_with:.1f}/s with "
        f"{args.streams} open and watching them ({rate_with / rate_without - 1:+.0%}), "
        f"{rate_idle:.1f}/s with {args.streams} open on other games "
        f"({rate_idle / rate_without - 1:+.0%})"
    )
    print(
        f"answer to every stream at {args.rate:.0f} actions/s: p50 "
        f"{percentile(paced_latencies, 0.5) * 1000:.1f} ms, p99 "
        f"{percentile(paced_latencies, 0.99) * 1000:.1f} ms ({len(paced_latencies)} actions)"
    )
    print(
        f"answer to every stream at full load: p50 {percentile(loaded_latencies, 0.5) * 1000:.1f} "
        f"ms, p99 {percentile(loaded_latencies, 0.99) * 1000:.1f} ms"
    )
    if args.slices:
        (done, spent), (watched, busy) = alternating["without"], alternating["with"]
        change = watched / busy / (done / spent) - 1
        print(
            f"alternating {args.slice_seconds:.0f} s slices ({args.slices} of each a round): "
            f"{done / spent:.1f}/s with no stream, {watched / busy:.1f}/s with {args.streams} "
            f"open and watching them ({change:+.0%})"
        )
    # The first round's: later rounds reuse the memory the first one's streams left behind.
    print(f"server memory per open stream (first round): {memory[0] / 1024:.1f} KiB")
    print(f"errors (refused, gaps or repeats, events that never arrived): {errors}")
    print(f"streams that ended or dropped and reconnected: {reconnections}")
    for http in https:
        http.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase and round")
    parser.add_argument("--rate", type=float, default=50.0, help="actions/s of the paced phase")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--slices", type=int, default=4, help="alternating slices of each kind a round (0: none)"
    )
    parser.add_argument("--slice-seconds", type=float, default=4.0)
    args = parser.parse_args()

    harness.prepare_database(service.DB_NAME, service.environment())
    service.setup_bench()
    tokens = service.make_tokens(2 * args.clients + args.spectators)
    server = start_server(args.workers)
    try:
        # uvloop, as the server runs on: the watchers share the 2 cores with the server, and the
        # default loop's Python reading path would cost them twice what uvloop's does.
        uvloop.run(asyncio.wait_for(run(args, tokens, server.pid), timeout=1800))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
