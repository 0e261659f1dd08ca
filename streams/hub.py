"""The fan-out of one server process: which games its open streams watch, and their new events.

A write tells the processes that a game has events up to some seq, and nothing more (``games.
effects``): on PostgreSQL a ``NOTIFY`` sent inside the write's transaction, which PostgreSQL
delivers only if it commits, to the one ``LISTEN`` connection of each process; on other databases
(SQLite: one process, ``make run``) a call on commit, in this process.

A notice marks the game as having news. The hub reads the news of every such game at once: one
statement for all of them, never one per stream or per game, while notices that arrive meanwhile
wait for the next. On PostgreSQL the statement is prepared on the listening connection and run
there from the event loop, its answer taken off the socket as the notices are (no thread, no
cursor); elsewhere the ORM reads in a thread. It keeps the last ``KEPT_EVENTS`` events of each
watched game, renders each new event once per viewpoint (each seat, the spectators) and hands
every live stream of the game the bytes of its viewpoint, so a stream's own work is to send them.
A stream that starts behind what is kept reads its backlog itself (``read_log``) before it joins.
A notice is never trusted for content: what a stream sends is what the log holds, so an event of a
write that was refused or rolled back is never sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from psycopg import pq
from psycopg.adapt import Transformer

from games.engine import shown_alike
from games.eventstore import NEWS_OF_GAMES, select_events
from games.models import Game, GameStatus
from games.selectors import sees_its_seat
from streams.frames import Logged, event_frame

if TYPE_CHECKING:
    from psycopg.abc import Transformer as Loading
    from psycopg.pq.abc import PGconn, PGresult

log = logging.getLogger(__name__)

CHANNEL = "uno_game_events"
# A new notification row announces itself here (a trigger: streams/migrations/0002).
PLAYER_CHANNEL = "uno_player_notices"
# A new chat message of a game (a trigger: streams/migrations/0005): its streams read their chat.
CHAT_CHANNEL = "uno_game_chat"
# A tournament's new log entry (a trigger: streams/migrations/0006): its streams read the log.
TOURNAMENT_CHANNEL = "uno_tournament_changes"
LISTENER_NAME = "uno-stream-listener"  # the listening connections' application_name
# Events read at once per game, and kept per watched game for streams that are a little behind.
READ_LIMIT = 500
KEPT_EVENTS = 256
RENDERED_KEPT = 8 * KEPT_EVENTS  # frames: a few viewpoints (seats, spectators) per event
LISTEN_RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
# The keep-alive timer ticks this many times per UNO_STREAM_KEEPALIVE: a game stream that sent
# nothing for all but one of them sends a comment, so the longest silence stays under it.
KEEP_ALIVE_TICKS = 4
BINARY = pq.Format.BINARY
T = TypeVar("T")
# What a stream needs of the game row: whether it ended, and who sits where (a player who takes a
# seat while watching sees their own cards from then on).
SUMMARY = ("status", "sealed", "version", "turn_deadline", "roster")


class Row(NamedTuple):
    """An event read by the news statement (no model instance: it only gets rendered)."""

    seq: int
    type: str
    seat: int | None
    data: Any
    created_at: datetime
    hash: str


@dataclass(frozen=True)
class Summary:
    """What the streams need of the game row: its status, version and who sits where."""

    status: str
    version: int
    roster: list[dict[str, Any]]
    sealed: bool = False  # a duplicate tournament's table: hidden until its round ends

    @property
    def ended(self) -> bool:
        """No event will follow the game's last (finished, or abandoned before it started)."""
        return self.status in (GameStatus.FINISHED, GameStatus.ABANDONED)

    @property
    def revealed(self) -> bool:
        return self.status == GameStatus.FINISHED and not self.sealed

    def seats(self) -> dict[int, int]:
        """The seat each player sees the game from, by player id (``selectors.view_seat``)."""
        return {
            int(entry["id"]): number
            for number, entry in enumerate(self.roster)
            if sees_its_seat(entry)
        }


@dataclass(frozen=True)
class News:
    """What a read of the news found of one game: its events after the seq asked, and its
    summary."""

    rows: list[Logged]
    summary: Summary


@dataclass(frozen=True)
class Page:
    """Events after some seq, and the game (its summary and roster) as it stood just before."""

    rows: Sequence[Logged]
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
    any; the row alone otherwise. A stream's own backlog, and the WSGI server's answer."""
    try:
        new = select_events(game_id, after)
        fields = (
            "seq",
            "type",
            "seat",
            "data",
            "created_at",
            "hash",
            *(f"game__{f}" for f in SUMMARY),
        )
        rows = list(new.select_related("game").only(*fields)[:limit])
        game = rows[0].game if rows else Game.objects.only(*SUMMARY).get(pk=game_id)
    except (OperationalError, InterfaceError):
        # A broken connection of a stream thread is dropped, so the next read connects afresh.
        connections[DEFAULT_DB_ALIAS].close()
        raise
    return Page(rows, game)


# The news statement, prepared once on each process's listening connection (``news_setup``) and
# run there by the hub, on its event loop: no thread, no cursor (docs/performance.md, "A seventh
# pass"). Its values: the game ids, the seq each was read to, and ``READ_LIMIT``.
NEWS_STATEMENT = "uno_news"


@functools.cache
def news_setup() -> tuple[str, ...]:
    """What prepares a connection for the news statement. Planned for its values each time,
    PostgreSQL would plan it anew for every read (its generic plan's estimate for arrays of
    unknown length looks dearer, though the plan is the same): about 145 us of its CPU a read
    against 60 us (docs/performance.md, "A fifth pass")."""
    return (
        "SET plan_cache_mode = force_generic_plan",
        "SET TIME ZONE 'UTC'",  # as Django's own connections: event times render alike
        f"PREPARE {NEWS_STATEMENT} (uuid[], integer[], integer) AS {NEWS_OF_GAMES}",
    )


def send_news_read(pgconn: PGconn, wanted: dict[str, int]) -> None:
    """Send the news statement for ``wanted`` (game id: the seq read so far); its one result
    comes as the connection's next (``news_of``). Game ids are the streams' own, checked UUIDs."""
    ids = ",".join(wanted)
    afters = ",".join(map(str, wanted.values()))
    values = [f"{{{ids}}}".encode(), f"{{{afters}}}".encode(), str(READ_LIMIT).encode()]
    pgconn.send_query_prepared(NEWS_STATEMENT.encode(), values, result_format=BINARY)


def news_of(transformer: Loading, result: PGresult) -> dict[str, News]:
    """What the news statement found (its answer, loaded by ``transformer``), by game: its events
    after the seq asked (up to ``READ_LIMIT``) and its summary as it stood then (one snapshot for
    all); a game that no longer exists is left out."""
    transformer.set_pgresult(result)
    rows = transformer.load_rows(0, result.ntuples, tuple)
    found: dict[str, list[Logged]] = {}
    summaries: dict[str, Summary] = {}
    for game_id, status, sealed, version, roster, seq, kind, seat, data, created_at, digest in rows:
        if game_id not in summaries:
            summaries[game_id] = Summary(status, version, roster, sealed)
            found[game_id] = []
        if seq is not None:
            found[game_id].append(Row(seq, kind, seat, data, created_at, digest))
    return {key: News(found[key], summary) for key, summary in summaries.items()}


def read_logs(wanted: dict[str, int]) -> dict[str, News]:
    """For each game of ``wanted`` (game id: the seq read so far), its events after that seq and
    its summary, through the ORM: the hub's read where there is no listening connection to run
    the news statement on (SQLite: one process, a few streams)."""
    news = {}
    for game_id, after in wanted.items():
        with contextlib.suppress(Game.DoesNotExist):
            page = read_log(game_id, after)
            game = page.game
            summary = Summary(game.status, game.version, list(game.roster), game.sealed)
            news[game_id] = News(list(page.rows), summary)
    return news


class Watcher:
    """One open game stream in this process: who watches, the last seq handed to it, and the
    bytes handed to it and not yet sent."""

    __slots__ = ("chat_news", "cursor", "ended", "failed", "pending", "quiet", "viewer_id", "wake")

    def __init__(self, viewer_id: int, cursor: int) -> None:
        self.viewer_id = viewer_id
        self.cursor = cursor
        self.pending: list[bytes] = []
        self.wake = asyncio.Event()
        self.ended = False  # the game ended and every event was handed over
        self.failed = False  # the hub could not read: the stream ends, the client resumes
        self.quiet = 0  # keep-alive ticks since the stream last sent something
        # The game's chat may have new messages: the stream reads its own (per viewer, filtered
        # by service.chat) before anything else. True at first: what came before it watched.
        self.chat_news = True

    def hand(self, chunk: bytes, cursor: int) -> None:
        self.pending.append(chunk)
        self.cursor = cursor
        self.wake.set()

    def take(self) -> bytes:
        chunk = b"".join(self.pending)
        self.pending.clear()
        self.quiet = 0
        return chunk


class GameLog:
    """The watched part of one game's log in this process, and the streams watching it."""

    def __init__(self, game_id: str, base: int) -> None:
        self.game_id = game_id
        self.live: set[Watcher] = set()  # streams the hub hands new events to
        self.behind: set[Watcher] = set()  # streams still reading their backlog themselves
        self.rows: list[Logged] = []  # events base+1 … base+len(rows), in order
        self.base = base
        self.summary: Summary | None = None  # after the first read
        # Frames already rendered, by (seq, seat, revealed): the streams of one seat (and every
        # spectator) share them. Dropped with the events they belong to.
        self.rendered: dict[tuple[int, int | None, bool], bytes] = {}

    @property
    def last(self) -> int:
        return self.base + len(self.rows)

    @property
    def watched(self) -> bool:
        return bool(self.live or self.behind)

    @property
    def waiting(self) -> bool:
        """The game waits for players as last read: a notice of it at the version read may say
        it was abandoned (no event: its version stays), so it is read again. Only a waiting
        game's: an active game's notices of a version already read are many, and say nothing."""
        return self.summary is not None and self.summary.status == GameStatus.WAITING

    def add(self, news: News) -> None:
        """What a read found after ``last``: hand it to the live streams, keep the last of it."""
        self.rows.extend(news.rows)
        self.summary = news.summary
        self.deliver()
        if len(self.rows) > KEPT_EVENTS:
            dropped = len(self.rows) - KEPT_EVENTS
            del self.rows[:dropped]
            self.base += dropped
            if len(self.rendered) > RENDERED_KEPT:  # now and then: it is a scan
                self.rendered = {k: f for k, f in self.rendered.items() if k[0] > self.base}

    def join(self, watcher: Watcher) -> bool:
        """Make ``watcher`` live if what is kept reaches back to its cursor; hand it what it
        has not had yet. False: it must read its backlog first."""
        if watcher.cursor < self.base:
            return False
        self.behind.discard(watcher)
        self.live.add(watcher)
        if self.summary is not None:
            self.deliver([watcher])
        return True

    def deliver(self, watchers: Iterable[Watcher] | None = None) -> None:
        """Hand each live stream the events after its cursor, rendered for its viewpoint: each
        event once per viewpoint, each viewpoint's bytes once for all its streams."""
        summary = self.summary
        if summary is None:
            return
        seats = summary.seats()
        revealed = summary.revealed
        last = self.last
        chunks: dict[tuple[int | None, int], bytes] = {}
        for watcher in list(self.live) if watchers is None else watchers:
            if watcher.cursor < self.base:  # cannot happen while kept events are delivered first
                self.live.discard(watcher)
                self.behind.add(watcher)
                watcher.wake.set()
                continue
            if watcher.cursor < last:
                seat = seats.get(watcher.viewer_id)
                key = (seat, watcher.cursor)
                chunk = chunks.get(key)
                if chunk is None:
                    chunk = chunks[key] = self._frames(watcher.cursor, seat, revealed)
                watcher.hand(chunk, last)
            if summary.ended and watcher.cursor >= summary.version:
                watcher.ended = True
                watcher.wake.set()

    def _frames(self, after: int, seat: int | None, revealed: bool) -> bytes:
        frames = []
        for row in self.rows[max(0, after - self.base) :]:
            # An event every viewer sees alike is rendered once for all of them.
            key = (row.seq, None if shown_alike(row.type) else seat, revealed)
            shown = self.rendered.get(key)
            if shown is None:
                shown = self.rendered[key] = event_frame(row, key[1], key[2])
            frames.append(shown)
        return b"".join(frames)

    def fail(self) -> None:
        for watcher in self.live:
            watcher.failed = True
            watcher.wake.set()


class Hub:
    """The games watched in this process; lives on the server's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.games: dict[str, GameLog] = {}
        self.players: dict[int, set[asyncio.Event]] = {}
        self.topics: dict[str, set[asyncio.Event]] = {}  # tournaments' streams, by id
        # Stream reads use the database in threads of their own, so they never wait behind (or
        # hold up) the REST API's threads; each keeps its database connection open.
        self.executor = ThreadPoolExecutor(
            max_workers=settings.UNO_STREAM_DB_THREADS, thread_name_prefix="uno-stream"
        )
        self.listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        # Without PostgreSQL, notices come from this process's own writes.
        self.in_process = connections[DEFAULT_DB_ALIAS].vendor != "postgresql"
        self.news: set[str] = set()  # watched games that may have new events
        self.reader: asyncio.Task[None] | None = None  # without PostgreSQL: the read in a thread
        # On PostgreSQL: the listening connection, once it listens and has the news statement,
        # the games of the news read in flight on it, and what it found so far.
        self.pgconn: PGconn | None = None
        self.transformer: Loading | None = None
        self.reading: dict[str, GameLog] | None = None
        self.results: list[PGresult] = []
        self.ticker: asyncio.TimerHandle | None = None
        self.closing = False  # the process is stopping (``close``)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        return await self.loop.run_in_executor(self.executor, function, *args)

    # --- game streams ----------------------------------------------------------------------------

    def watch(self, game_id: str, viewer_id: int, after: int) -> tuple[GameLog, Watcher]:
        """Start watching ``game_id`` from seq ``after`` for ``viewer_id``."""
        self._start_listening()
        self._start_ticking()
        watcher = Watcher(viewer_id, after)
        game_log = self.games.get(game_id)
        if game_log is None:
            # Kept from the first stream's cursor on; the first read says where the game is.
            game_log = self.games[game_id] = GameLog(game_id, after)
            self._mark(game_id)
        if not game_log.join(watcher):
            game_log.behind.add(watcher)
        return game_log, watcher

    def unwatch(self, game_log: GameLog, watcher: Watcher) -> None:
        game_log.live.discard(watcher)
        game_log.behind.discard(watcher)
        if not game_log.watched and self.games.get(game_log.game_id) is game_log:
            del self.games[game_log.game_id]

    def chat_notified(self, game_id: str) -> None:
        """A chat message of ``game_id`` committed: each of its streams reads its chat."""
        game_log = self.games.get(game_id)
        if game_log is None:
            return
        for watcher in (*game_log.live, *game_log.behind):
            watcher.chat_news = True
            watcher.wake.set()

    def notified(self, game_id: str, seq: int) -> None:
        game_log = self.games.get(game_id)
        if game_log is not None and (seq > game_log.last or game_log.waiting):
            self._mark(game_id)
        if self.in_process:
            # No notices of notification rows without PostgreSQL's trigger: a game's write is
            # what writes them here, so every player stream looks again.
            self._wake_players(list(self.players))
            self.wake_topics(list(self.topics))

    def _mark(self, game_id: str) -> None:
        self.news.add(game_id)
        if not self.in_process:
            self._send_read()
        elif self.reader is None:
            self.reader = self.loop.create_task(self._read_news(), name="uno-stream-reader")

    def _wanted(self) -> dict[str, GameLog]:
        """The marked games still watched, unmarked: what the next read is for."""
        wanted = {g: self.games[g] for g in self.news if g in self.games}
        self.news.clear()
        return wanted

    def _found(self, wanted: dict[str, GameLog], found: dict[str, News]) -> None:
        """Hand what a read found to the games' streams; a game with more to read is marked."""
        for game_id, game_log in wanted.items():
            news = found.get(game_id)
            if news is None or self.games.get(game_id) is not game_log:
                continue  # gone, or no stream watches it any more
            game_log.add(news)
            if len(news.rows) == READ_LIMIT:
                self.news.add(game_id)  # more to read

    @staticmethod
    def _failed(wanted: dict[str, GameLog]) -> None:
        """The database failed the read: those streams end; their clients reconnect from their
        last id."""
        for game_log in wanted.values():
            game_log.fail()

    async def _read_news(self) -> None:
        """Without PostgreSQL: read the news of every marked game in a thread; the games marked
        meanwhile make up the next read."""
        try:
            while self.news:
                wanted = self._wanted()
                if not wanted:
                    continue
                try:
                    found = await self.run(read_logs, {g: w.last for g, w in wanted.items()})
                except Exception:
                    log.warning("stream read failed", exc_info=True)
                    self._failed(wanted)
                    continue
                self._found(wanted, found)
        finally:
            self.reader = None

    def _send_read(self) -> None:
        """On PostgreSQL: unless a read is in flight, send the news statement for every marked
        game on the listening connection; its answer comes to ``_receive``'s callback, and the
        games marked meanwhile make up the next read. Until the connection listens, the marks
        wait (``wake_all`` marks every game once it does)."""
        pgconn = self.pgconn
        if self.reading is not None or pgconn is None or not self.news:
            return
        wanted = self._wanted()
        if not wanted:
            return
        try:
            send_news_read(pgconn, {g: w.last for g, w in wanted.items()})
        except psycopg.Error:
            # The connection failed: its socket says so to ``_receive``, which connects again,
            # and everything watched is read then.
            log.warning("stream read could not be sent", exc_info=True)
            self.news.update(wanted)
            return
        self.reading = wanted
        if pgconn.flush():  # the statement did not fit the socket's buffer: the rest when it can
            self.loop.add_writer(pgconn.socket, self._flush, pgconn)

    def _flush(self, pgconn: PGconn) -> None:
        if not pgconn.flush():
            self.loop.remove_writer(pgconn.socket)

    def _take_results(self, pgconn: PGconn) -> bool:
        """The news read's answer, as far as it came: once whole, handed to the streams, and the
        next read sent. Whether it was whole."""
        while self.reading is not None and not pgconn.is_busy():
            result = pgconn.get_result()
            if result is not None:
                self.results.append(result)
                continue
            wanted, results = self.reading, self.results
            self.reading, self.results = None, []
            self._answered(wanted, results)
            self._send_read()
            return True
        return False

    def _answered(self, wanted: dict[str, GameLog], results: list[PGresult]) -> None:
        transformer = self.transformer
        if len(results) != 1 or results[0].status != pq.ExecStatus.TUPLES_OK or not transformer:
            errors = [r.error_message.decode(errors="replace") for r in results]
            log.warning("stream read failed: %s", "; ".join(errors))
            self._failed(wanted)
            return
        self._found(wanted, news_of(transformer, results[0]))

    def _start_ticking(self) -> None:
        if self.ticker is None:
            self.ticker = self.loop.call_later(self._tick_seconds(), self._tick)

    @staticmethod
    def _tick_seconds() -> float:
        return float(settings.UNO_STREAM_KEEPALIVE) / KEEP_ALIVE_TICKS

    def _tick(self) -> None:
        """Wake the game streams that sent nothing for a while: they send a keep-alive. One
        timer for all of them, rather than one per stream and wait."""
        self.ticker = None
        for game_log in self.games.values():
            for watcher in (*game_log.live, *game_log.behind):
                watcher.quiet += 1
                if watcher.quiet >= KEEP_ALIVE_TICKS - 1:
                    watcher.wake.set()
        if self.games:
            self._start_ticking()

    def close(self) -> None:
        """The process is stopping: every stream ends now, and a stream that opens from now on
        ends at once; their clients reconnect (to another process) from their last id."""
        self.closing = True
        for game_log in self.games.values():
            for watcher in (*game_log.live, *game_log.behind):
                watcher.wake.set()
        self._wake_players(list(self.players))
        self.wake_topics(list(self.topics))

    # --- player streams --------------------------------------------------------------------------

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
        for game_id in self.games:
            self._mark(game_id)
            self.chat_notified(game_id)
        self._wake_players(list(self.players))
        self.wake_topics(list(self.topics))

    # --- tournament streams: woken by their log's notices, as player streams are -------------

    def watch_topic(self, key: str) -> asyncio.Event:
        """Start watching tournament ``key``'s log: the event is set when it may have news."""
        self._start_listening()
        wake = asyncio.Event()
        self.topics.setdefault(key, set()).add(wake)
        return wake

    def unwatch_topic(self, key: str, wake: asyncio.Event) -> None:
        watchers = self.topics.get(key)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self.topics[key]

    def wake_topics(self, keys: list[str]) -> None:
        for key in keys:
            for wake in self.topics.get(key, ()):
                wake.set()

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
        params = _listen_params()
        failures = 0
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                try:
                    await conn.execute(
                        f"LISTEN {CHANNEL}; LISTEN {PLAYER_CHANNEL}; LISTEN {CHAT_CHANNEL}; "
                        f"LISTEN {TOURNAMENT_CHANNEL}"
                    )
                    for statement in news_setup():
                        await conn.execute(statement)
                    failures = 0
                    self.transformer = Transformer(conn)
                    self.pgconn = conn.pgconn
                    self.listening.set()
                    self.wake_all()  # what committed before LISTEN took effect is read now
                    await self._receive(conn.pgconn)
                finally:
                    # Closed, not left with ``async with``: that would roll back first, which
                    # a read still in flight makes fail.
                    await conn.close()
            except asyncio.CancelledError:
                self._lost()
                raise
            except Exception:
                self._lost()
                delay = LISTEN_RETRY_SECONDS[min(failures, len(LISTEN_RETRY_SECONDS) - 1)]
                failures += 1
                log.warning(
                    "stream listener lost its connection; again in %ss", delay, exc_info=True
                )
                await asyncio.sleep(delay)

    def _lost(self) -> None:
        """The listening connection failed: no read is in flight any more, and what it was for
        is read again once it listens again (``wake_all``)."""
        self.listening.clear()
        self.pgconn = None
        self.transformer = None
        self.reading, self.results = None, []

    async def _receive(self, pgconn: PGconn) -> None:
        """Take the notices and the news reads' answers off the listening connection as its
        socket has bytes, until it fails.

        A reader callback on the socket rather than psycopg's ``notifies()``: that generator
        registers and drops a reader, and makes a future, for every notice (two per action), a
        tenth of a busy worker's time."""
        lost: asyncio.Future[None] = self.loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()
                while True:
                    while (notice := pgconn.notifies()) is not None:
                        self._notice(notice.relname.decode(), notice.extra.decode())
                    # Taking a read's answer parses what came after it, notices too, which the
                    # socket will not announce again: until nothing is left, look at both.
                    if not self._take_results(pgconn):
                        break
            except Exception as error:  # the connection failed: _listen connects again
                if not lost.done():
                    lost.set_exception(error)

        socket = pgconn.socket
        self.loop.add_reader(socket, readable)
        try:
            readable()  # anything that came with LISTEN's answer
            await lost
        finally:
            self.loop.remove_reader(socket)
            with contextlib.suppress(Exception):
                self.loop.remove_writer(socket)

    def _notice(self, channel: str, payload: str) -> None:
        key, _, seq = payload.partition(":")
        with contextlib.suppress(ValueError):
            if channel == PLAYER_CHANNEL:
                self._wake_players([int(key)])
            elif channel == CHAT_CHANNEL:
                self.chat_notified(key)
            elif channel == TOURNAMENT_CHANNEL:
                self.wake_topics([key])
            else:
                self.notified(key, int(seq))


def _listen_params() -> dict[str, Any]:
    """psycopg's connection parameters as Django's own connections use them, named so that
    ``pg_stat_activity`` tells the listening connections apart."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    params["application_name"] = LISTENER_NAME
    return params


_hub: Hub | None = None


def current() -> Hub:
    """This process's hub, made on the running event loop the first time a stream opens."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        _hub = Hub(loop)
    return _hub


def close_all() -> None:
    """End every stream of this process (called on its event loop as the server stops)."""
    if _hub is not None and not _hub.loop.is_closed():
        _hub.close()


def publish_committed(game_id: str, seq: int) -> None:
    """In-process fan-out (databases without NOTIFY): called on commit, from any thread."""
    hub = _hub
    if hub is None or hub.loop.is_closed():
        return  # no stream was ever opened in this process
    with contextlib.suppress(RuntimeError):  # the loop is closing
        hub.loop.call_soon_threadsafe(hub.notified, game_id, seq)


def publish_topic_committed(key: str) -> None:
    """In-process notice of a tournament's committed log entry (databases without NOTIFY)."""
    hub = _hub
    if hub is None or hub.loop.is_closed():
        return
    with contextlib.suppress(RuntimeError):  # the loop is closing
        hub.loop.call_soon_threadsafe(hub.wake_topics, [key])


def publish_chat_committed(game_id: str) -> None:
    """In-process notice of a committed chat message (databases without NOTIFY), any thread."""
    hub = _hub
    if hub is None or hub.loop.is_closed():
        return
    with contextlib.suppress(RuntimeError):  # the loop is closing
        hub.loop.call_soon_threadsafe(hub.chat_notified, game_id)
