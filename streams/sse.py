"""Server-Sent Events: the frames, and the game stream as an async iterator of them.

Each message is ``id: <seq>``, ``event: <type>``, ``data: <the event JSON>``: the event exactly as
the event log serves it to that viewer (``games.selectors.event_body``, so ``engine.event_view``
decides what the seat sees). A comment (``: keep-alive``) is sent when nothing else was for
``UNO_STREAM_KEEPALIVE`` seconds, so proxies and clients keep an idle stream open.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.conf import settings
from django.contrib.auth.models import User

from games import selectors
from streams import hub
from streams.frames import ended_frame, event_frame

log = logging.getLogger(__name__)
K = TypeVar("K")

KEEP_ALIVE = b": keep-alive\n\n"
# How long a client waits before reconnecting after the stream ends or drops (milliseconds).
RETRY_MS = 2000
OPENING = f"retry: {RETRY_MS}\n\n".encode()
# A stream ended because its process stops asks its client to come back after a random wait in
# this range (milliseconds), so that thousands of clients do not reconnect in the same instant.
CLOSING_RETRY_MS = (100, 1500)


# The last message of a game stream whose game ended: a reconnection would only hear this again.
GAME_OVER = ended_frame(
    "game_not_active", "The game is over (finished, or abandoned): no event will follow."
)


def closing_frame() -> bytes:
    """The last frame of a stream whose process stops: when to reconnect."""
    return f"retry: {random.randint(*CLOSING_RETRY_MS)}\n\n".encode()


def frames_of(page: hub.Page, viewer: User) -> bytes:
    """The page's events as ``viewer`` may see them (from their seat, or as a spectator)."""
    seat = selectors.view_seat(page.game, viewer)
    revealed = page.game.revealed
    return b"".join(event_frame(row, seat, revealed) for row in page.rows)


@dataclass
class ChatFeed:
    """A game stream's chat, given by the application layer (``service.chat``): ``read(after)``
    answers the frames of the messages after id ``after`` this viewer may see and the id read up
    to (every message, seen or not), or None when there is none; ``cursor`` is where it stands."""

    read: Callable[[int], tuple[bytes, int] | None]
    cursor: int


async def game_stream(
    game_id: str, viewer: User, after: int, chat: ChatFeed | None = None
) -> AsyncIterator[bytes]:
    """The events of ``game_id`` after seq ``after`` as ``viewer`` may see them, as they commit;
    it ends after the last event of a game that ended, with ``GAME_OVER``. With ``chat``, the
    game's chat messages too, as ``chat`` frames (no ``id:``), in the order of their ids, each
    once.

    The hub hands the stream its bytes (``streams.hub``); only a stream that starts behind what
    the hub keeps reads the log itself, until it catches up. A chat notice makes the stream read
    its chat itself (a chat is a few lines a minute: one read per stream and message).
    """
    processes = hub.current()
    game_log, watcher = processes.watch(game_id, viewer.pk, after)  # before any read: no notice
    try:  # is missed
        yield OPENING
        while True:
            if processes.closing:
                yield watcher.take() + closing_frame()
                return
            if chat is not None and watcher.chat_news:
                watcher.chat_news = False
                found = await processes.run(chat.read, chat.cursor)
                if found is not None:
                    frames, chat.cursor = found
                    if frames:
                        watcher.quiet = 0
                        yield frames
                continue
            if watcher in game_log.behind:
                watcher.wake.clear()
                page = await processes.run(hub.read_log, game_id, watcher.cursor)
                if page.rows:
                    watcher.quiet = 0
                    yield frames_of(page, viewer)
                    watcher.cursor = page.rows[-1].seq
                joined = game_log.join(watcher)
                if not joined and not page.rows and page.ended and watcher.cursor >= page.version:
                    yield GAME_OVER
                    return
                continue
            if watcher.pending:
                yield watcher.take()
                continue
            if watcher.ended:
                yield GAME_OVER
                return
            if watcher.failed:
                log.warning("game stream of %s ended: the hub could not read", game_id)
                return
            watcher.wake.clear()
            await watcher.wake.wait()
            if not watcher.pending and watcher.quiet >= hub.KEEP_ALIVE_TICKS - 1:
                watcher.quiet = 0
                yield KEEP_ALIVE
    except Exception:
        # The database failed a read: end the stream; the client reconnects from its last id.
        log.warning("game stream of %s ended on an error", game_id, exc_info=True)
    finally:
        processes.unwatch(game_log, watcher)


async def while_true(
    stream: AsyncIterator[bytes], still: Callable[[], bool], every: float, last: bytes
) -> AsyncIterator[bytes]:
    """``stream``'s frames while ``still()`` holds: asked in a database thread as frames pass
    (an idle stream sends a keep-alive at least every ``UNO_STREAM_KEEPALIVE``), at most every
    ``every`` seconds; once it does not, the stream sends ``last`` (why it ends: its sign-in
    ended, say) and ends."""
    processes = hub.current()
    asked = time.monotonic()
    try:
        async for frame in stream:
            now = time.monotonic()
            if now - asked >= every:
                asked = now
                if not await processes.run(still):
                    yield last
                    return
            yield frame
    finally:
        if isinstance(stream, AsyncGenerator):
            await stream.aclose()


# --- the player stream: a feed of the caller's own (their notifications) -------------------------


@dataclass(frozen=True)
class Feed(Generic[K]):
    """What a feed stream serves, given by the caller (the application layer): ``read`` the
    frames after an id and the last id among them (None: nothing new), ``latest`` the newest id
    now, ``opening`` the frames sent first, once the cursor is fixed (``opening(key, cursor)``:
    the player stream's snapshot), ``last`` the stream's last message once nothing will follow
    the cursor (``last(key, cursor)``: a finished tournament's), None while something may. The
    stream only waits for the hub's wake-ups and the keep-alives. ``K``: what the feed is of (a
    player id, a tournament id)."""

    read: Callable[[K, int], tuple[bytes, int] | None]
    latest: Callable[[K], int]
    opening: Callable[[K, int], bytes] | None = None
    last: Callable[[K, int], bytes | None] | None = None


async def player_stream(player_id: int, after: int | None, feed: Feed[int]) -> AsyncIterator[bytes]:
    """``player_id``'s feed after id ``after`` (None: new rows only), as it commits."""
    processes = hub.current()
    wake = processes.watch_player(player_id)  # before the first read: no notice is missed
    try:
        async for chunk in _feed_stream(processes, player_id, after, feed, wake):
            yield chunk
    finally:
        processes.unwatch_player(player_id, wake)


async def tournament_stream(
    tournament_id: str, after: int | None, feed: Feed[str]
) -> AsyncIterator[bytes]:
    """The tournament's log after seq ``after`` (None: new entries only), as it commits; woken
    by the notice of each new entry (a trigger), as player streams are."""
    processes = hub.current()
    wake = processes.watch_topic(tournament_id)  # before the first read: no notice is missed
    try:
        async for chunk in _feed_stream(processes, tournament_id, after, feed, wake):
            yield chunk
    finally:
        processes.unwatch_topic(tournament_id, wake)


async def _feed_stream(
    processes: hub.Hub, key: K, after: int | None, feed: Feed[K], wake: asyncio.Event
) -> AsyncIterator[bytes]:
    keep_alive = settings.UNO_STREAM_KEEPALIVE
    try:
        # Where "new" starts is fixed before the client sees the stream open: a row that
        # commits once it has would otherwise fall behind the cursor and never be sent.
        cursor = after if after is not None else await processes.run(feed.latest, key)
        yield OPENING
        if feed.opening is not None:  # read after the cursor is fixed: news since come after it
            yield await processes.run(feed.opening, key, cursor)
        look = True
        while True:
            if processes.closing:
                yield closing_frame()
                return
            if look:
                wake.clear()
                found = await processes.run(feed.read, key, cursor)
                if found is not None:
                    frames, cursor = found
                    yield frames
                    continue
                if feed.last is not None:
                    end = await processes.run(feed.last, key, cursor)
                    if end is not None:
                        yield end
                        return
            try:
                async with asyncio.timeout(keep_alive):
                    await wake.wait()
                look = True
            except TimeoutError:
                yield KEEP_ALIVE
                look = processes.in_process  # no trigger there: look now and then anyway
    except Exception:
        log.warning("the stream of %s ended on an error", key, exc_info=True)


def feed_backlog(key: K, after: int | None, feed: Feed[K]) -> Iterator[bytes]:
    """Under a WSGI server: the opening, the rows missed since ``after``, then the end (a
    player's feed, or a tournament's), with the feed's ``last`` message where nothing will
    follow."""
    yield OPENING
    cursor = after if after is not None else feed.latest(key)
    if feed.opening is not None:
        yield feed.opening(key, cursor)
    found = None if after is None else feed.read(key, after)
    if found is not None:
        yield found[0]
        cursor = found[1]
    end = None if feed.last is None else feed.last(key, cursor)
    if end is not None:
        yield end


player_backlog = feed_backlog


def game_backlog(
    game_id: str, viewer: User, after: int, chat: ChatFeed | None = None
) -> Iterator[bytes]:
    """Under a WSGI server (no event loop to wait on): what the log holds now, then the end; the
    client reconnects after ``retry`` with its last id, so it still misses nothing. Once the
    log's last event of a game that ended is sent, ``GAME_OVER`` says there is no need to."""
    yield OPENING
    if chat is not None:
        found = chat.read(chat.cursor)
        if found is not None:
            yield found[0]
    page = hub.read_log(game_id, after)
    yield frames_of(page, viewer)
    if page.ended and (page.rows[-1].seq if page.rows else after) >= page.version:
        yield GAME_OVER
