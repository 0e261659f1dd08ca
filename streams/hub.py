"""The fan-out of one server process: which games its open streams watch, and their new events.

A write tells the processes that a game has events up to some seq, and nothing more (``games.
effects``): on PostgreSQL a ``NOTIFY`` sent inside the write's transaction, which PostgreSQL
delivers only if it commits, to the one ``LISTEN`` connection of each process; on other databases
(SQLite: one process, ``make run``) a call on commit, in this process.

The notice marks the game's log as stale and wakes its streams. The hub reads the new events once
for every stream of that game in the process (one query in a thread, never one per stream) and
keeps the last ``KEPT_EVENTS`` of them; each stream then takes the events after its own cursor and
renders them for its viewer. A notice is never trusted for content: what a stream sends is what
the log holds, so an event of a write that was refused or rolled back is never sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

from games.models import Event, Game, GameStatus

log = logging.getLogger(__name__)

CHANNEL = "uno_game_events"
# A new notification row announces itself here (a trigger: streams/migrations/0002).
PLAYER_CHANNEL = "uno_player_notices"
# Events read at once, and kept per watched game for streams that are a little behind.
READ_LIMIT = 500
KEPT_EVENTS = 256
RENDERED_KEPT = 8 * KEPT_EVENTS  # frames: a few viewpoints (seats, spectators) per event
LISTEN_RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
T = TypeVar("T")
# What a stream needs of the game row: whether it ended, and who sits where (a player who takes a
# seat while watching sees their own cards from then on).
SUMMARY = ("status", "version", "turn_deadline", "roster")


@dataclass(frozen=True)
class Page:
    """Events after some seq, and the game (its summary and roster) as it stood just before."""

    rows: list[Event]
    game: Game

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def ended(self) -> bool:
        """No event will follow the game's last (finished, or abandoned before it started)."""
        return self.status in (GameStatus.FINISHED, GameStatus.ABANDONED)


def read_log(game_id: str, after: int, limit: int = READ_LIMIT) -> Page:
    """The game's events after ``after`` with its row, in one query (one snapshot) when there are
    any; the row alone otherwise."""
    try:
        new = Event.objects.filter(game_id=game_id, seq__gt=after).order_by("seq")
        fields = ("seq", "type", "seat", "data", "created_at", *(f"game__{f}" for f in SUMMARY))
        rows = list(new.select_related("game").only(*fields)[:limit])
        game = rows[0].game if rows else Game.objects.only(*SUMMARY).get(pk=game_id)
    except (OperationalError, InterfaceError):
        # A broken connection of a stream thread is dropped, so the next read connects afresh.
        connections[DEFAULT_DB_ALIAS].close()
        raise
    return Page(rows, game)


class GameLog:
    """The watched part of one game's log in this process, and the streams watching it."""

    def __init__(self, hub: Hub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.watchers: set[asyncio.Event] = set()
        self.rows: list[Event] = []  # events base+1 … base+len(rows), in order
        self.base = 0
        self.loaded = False
        self.stale = True
        self.page: Page | None = None
        # Frames already rendered, by (seq, seat, revealed): the streams of one seat (and every
        # spectator) share them. Dropped with the events they belong to.
        self.rendered: dict[tuple[int, int | None, bool], bytes] = {}
        self._reading: asyncio.Future[None] | None = None

    @property
    def last(self) -> int:
        return self.base + len(self.rows)

    def notified(self, seq: int) -> None:
        if not self.loaded or seq > self.last:
            self.stale = True
        for wake in self.watchers:
            wake.set()

    async def read(self, after: int) -> Page:
        """The events after ``after`` (up to ``READ_LIMIT``), as of the latest notice."""
        while True:
            if self._reading is not None:
                # Another stream of the game is reading what is new: its read serves this one.
                await asyncio.shield(self._reading)
                continue
            if self.loaded and not self.stale and after >= self.base and self.page is not None:
                index = after - self.base
                return Page(self.rows[index : index + READ_LIMIT], self.page.game)
            if self.loaded and after < self.base:
                # Behind what is kept (a reconnection from long ago): read for this stream only.
                return await self.hub.run(read_log, self.game_id, after)
            await self._refresh(after)

    async def _refresh(self, after: int) -> None:
        """Read what is new once, for every stream of the game (the others wait for it)."""
        reading = asyncio.get_running_loop().create_future()
        self._reading = reading
        start = self.last if self.loaded else after
        self.stale = False  # a notice that arrives during the read makes it stale again
        try:
            page = await self.hub.run(read_log, self.game_id, start)
        except BaseException:
            self.stale = True
            raise
        finally:
            self._reading = None
            reading.set_result(None)
        if not self.loaded:
            self.base, self.rows, self.loaded = start, [], True
        self.rows.extend(page.rows)
        self.page = page
        if len(page.rows) == READ_LIMIT:
            self.stale = True  # more to read
        if len(self.rows) > KEPT_EVENTS:
            dropped = len(self.rows) - KEPT_EVENTS
            del self.rows[:dropped]
            self.base += dropped
            if len(self.rendered) > RENDERED_KEPT:  # now and then: it is a scan
                self.rendered = {k: f for k, f in self.rendered.items() if k[0] > self.base}


class Hub:
    """The games watched in this process; lives on the server's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.games: dict[str, GameLog] = {}
        self.players: dict[int, set[asyncio.Event]] = {}
        # Stream reads use the ORM in threads of their own, so they never wait behind (or hold
        # up) the REST API's thread; each keeps its database connection open.
        self.executor = ThreadPoolExecutor(
            max_workers=settings.UNO_STREAM_DB_THREADS, thread_name_prefix="uno-stream"
        )
        self.listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        # Without PostgreSQL, notices come from this process's own writes.
        self.in_process = connections[DEFAULT_DB_ALIAS].vendor != "postgresql"

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        return await self.loop.run_in_executor(self.executor, function, *args)

    def watch(self, game_id: str) -> tuple[GameLog, asyncio.Event]:
        """Start watching ``game_id``: the event is set whenever it may have new events."""
        self._start_listening()
        game_log = self.games.get(game_id)
        if game_log is None:
            game_log = self.games[game_id] = GameLog(self, game_id)
        wake = asyncio.Event()
        game_log.watchers.add(wake)
        return game_log, wake

    def unwatch(self, game_id: str, wake: asyncio.Event) -> None:
        game_log = self.games.get(game_id)
        if game_log is None:
            return
        game_log.watchers.discard(wake)
        if not game_log.watchers:
            del self.games[game_id]

    def notified(self, game_id: str, seq: int) -> None:
        game_log = self.games.get(game_id)
        if game_log is not None:
            game_log.notified(seq)
        if self.in_process:
            # No notices of notification rows without PostgreSQL's trigger: a game's write is
            # what writes them here, so every player stream looks again.
            self._wake_players(list(self.players))

    def watch_player(self, player_id: int) -> asyncio.Event:
        """Start watching ``player_id``'s notifications: the event is set when they may have new
        ones."""
        self._start_listening()
        wake = asyncio.Event()
        self.players.setdefault(player_id, set()).add(wake)
        return wake

    def unwatch_player(self, player_id: int, wake: asyncio.Event) -> None:
        watchers = self.players.get(player_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self.players[player_id]

    def _wake_players(self, player_ids: list[int]) -> None:
        for player_id in player_ids:
            for wake in self.players.get(player_id, ()):
                wake.set()

    def wake_all(self) -> None:
        """Anything may have been missed (the listener was (re)connecting): read again."""
        for game_log in self.games.values():
            game_log.stale = True
            for wake in game_log.watchers:
                wake.set()
        self._wake_players(list(self.players))

    # --- PostgreSQL: one LISTEN connection per process -----------------------------------------

    def _start_listening(self) -> None:
        if self.listener is not None:
            return
        if not self.in_process:
            self.listener = self.loop.create_task(self._listen(), name="uno-stream-listener")
        else:
            self.listener = self.loop.create_task(asyncio.sleep(0))  # notices come in-process
            self.listening.set()

    async def _listen(self) -> None:
        import psycopg

        params = _listen_params()
        failures = 0
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}; LISTEN {PLAYER_CHANNEL}")
                    failures = 0
                    self.listening.set()
                    self.wake_all()  # what committed before LISTEN took effect is read now
                    async for notice in conn.notifies():
                        key, _, seq = notice.payload.partition(":")
                        with contextlib.suppress(ValueError):
                            if notice.channel == PLAYER_CHANNEL:
                                self._wake_players([int(key)])
                            else:
                                self.notified(key, int(seq))
            except asyncio.CancelledError:
                raise
            except Exception:
                self.listening.clear()
                delay = LISTEN_RETRY_SECONDS[min(failures, len(LISTEN_RETRY_SECONDS) - 1)]
                failures += 1
                log.warning(
                    "stream listener lost its connection; again in %ss", delay, exc_info=True
                )
                await asyncio.sleep(delay)


def _listen_params() -> dict[str, Any]:
    """psycopg's connection parameters as Django's own connections use them."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    return params


_hub: Hub | None = None


def current() -> Hub:
    """This process's hub, made on the running event loop the first time a stream opens."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        _hub = Hub(loop)
    return _hub


def publish_committed(game_id: str, seq: int) -> None:
    """In-process fan-out (databases without NOTIFY): called on commit, from any thread."""
    hub = _hub
    if hub is None or hub.loop.is_closed():
        return  # no stream was ever opened in this process
    with contextlib.suppress(RuntimeError):  # the loop is closing
        hub.loop.call_soon_threadsafe(hub.notified, game_id, seq)
