"""Who is looking at a game: a player with a stream of it open is watching it.

A live game sends no ``your_turn`` or ``deadline_soon`` to a player watching it (the outbox
leaves those rows out, ``notifications.outbox``): they see their turn come on the table, and an
inbox that fills with turns they are playing is noise. Once they leave (the page or the stream
closes) the notifications come as before; correspondence games keep every one.

Each web process keeps the streams it serves (``_open``, on its event loop) and says so in
``notifications.Watching``: a row when a stream opens, its removal when the last stream of that
player and game in the process closes, and every ``REFRESH`` seconds the process's rows written
again from ``_open`` with a new ``until``, so a row whose removal failed, or that a process which
died left behind, lapses within ``TTL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from notifications.models import Watching
from streams import hub

log = logging.getLogger(__name__)

PROCESS = uuid.uuid4().hex  # this process, in its rows
TTL = timedelta(seconds=60)  # how long a row stands without its process writing it again
REFRESH = 20.0  # seconds between the process's rewrites of its rows

_open: Counter[tuple[int, str]] = Counter()  # (player id, game id): this process's open streams
_refresher: asyncio.Task[None] | None = None


def _store(player_id: int, game_id: str) -> None:
    Watching.objects.create(
        player_id=player_id, game_id=game_id, process=PROCESS, until=timezone.now() + TTL
    )


def _forget(player_id: int, game_id: str) -> None:
    if (player_id, game_id) not in _open:  # none opened again meanwhile
        Watching.objects.filter(process=PROCESS, player_id=player_id, game_id=game_id).delete()


def _rewrite(keys: list[tuple[int, str]]) -> None:
    """The process's rows are ``keys``, each good for ``TTL`` more (one transaction: no gap)."""
    until = timezone.now() + TTL
    with transaction.atomic():
        Watching.objects.filter(process=PROCESS).delete()
        Watching.objects.bulk_create(
            Watching(player_id=player, game_id=game, process=PROCESS, until=until)
            for player, game in keys
        )


async def _refresh(processes: hub.Hub) -> None:
    global _refresher
    try:
        while _open:
            await asyncio.sleep(REFRESH)
            try:
                await processes.run(_rewrite, list(_open))
            except Exception:  # the database is away: the rows lapse, notifications come
                log.warning("could not write again who watches which game", exc_info=True)
    finally:
        _refresher = None


def _run_later(processes: hub.Hub, function: Callable[..., None], *args: object) -> None:
    async def later() -> None:
        try:
            await processes.run(function, *args)
        except Exception:
            log.warning("could not forget a closed stream's watch", exc_info=True)

    processes.loop.create_task(later())


async def watched(
    stream: AsyncIterator[bytes], player_id: int, game_id: str
) -> AsyncIterator[bytes]:
    """``stream`` (a game stream of ``player_id``), with the player watching the game while it
    is open."""
    global _refresher
    processes = hub.current()
    key = (player_id, game_id)
    _open[key] += 1
    try:
        try:
            await processes.run(_store, player_id, game_id)
        except Exception:  # the stream goes on; the notifications still come
            log.warning("could not note that %s watches %s", player_id, game_id, exc_info=True)
        if _refresher is None:
            _refresher = processes.loop.create_task(_refresh(processes))
        async for chunk in stream:
            yield chunk
    finally:
        _open[key] -= 1
        if not _open[key]:
            del _open[key]
            _run_later(processes, _forget, player_id, game_id)  # not awaited: it may be cancelled
        close = getattr(stream, "aclose", None)  # the inner stream ends now, not when collected
        if close is not None:
            with contextlib.suppress(Exception):
                await close()
