"""Long polls of the event log (``GET …/events/?wait=S``): few at once, waiting without churn.

A long poll holds one of the web process's threads for up to ``wait`` seconds. Sixteen of them
from one player left the other players' requests and ``/healthz`` unanswered for 11 to 19 s, and
each re-read the game every 0.2 s on a new PostgreSQL session (issue 11). So:

- a process holds at most ``UNO_LONG_POLLS_PER_PROCESS`` long polls at once, one player at most
  ``UNO_LONG_POLLS_PER_PLAYER`` of them (counted per process, like the threads they hold); the
  excess is answered at once with 429 ``throttled`` and a ``Retry-After``. The per-process cap
  stays below gunicorn's threads per worker, so threads are always left for other requests.
- a waiting poll sleeps on a condition that every write committed in this process wakes
  (``notify``, a subscriber of every write, ``service.subscribers``), and re-reads at most every
  ``RECHECK`` seconds otherwise (writes committed by other processes). It keeps the one database
  connection of its thread meanwhile: one session per poll, whatever ``CONN_MAX_AGE`` says.

A poll with ``wait=0`` reads once and holds nothing, so it is never refused here.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.conf import settings
from rest_framework.exceptions import Throttled

T = TypeVar("T")
# Seconds between two reads of a waiting poll when no write of this process woke it: how late a
# poll may learn of an action committed by another process.
RECHECK = 1.0

_changed = threading.Condition()
_generation = 0  # writes committed in this process: a poll waits only while it is unchanged
_held: Counter[int] = Counter()  # long polls held now, per player id


def notify(*_: Any) -> None:
    """A write committed: wake every waiting poll to read again."""
    global _generation
    with _changed:
        _generation += 1
        _changed.notify_all()


def held(player_id: int | None = None) -> int:
    """Long polls held now in this process, by one player or by all."""
    with _changed:
        return sum(_held.values()) if player_id is None else _held[player_id]


@contextmanager
def _slot(player_id: int) -> Iterator[None]:
    with _changed:
        if sum(_held.values()) >= settings.UNO_LONG_POLLS_PER_PROCESS:
            raise Throttled(wait=RECHECK, detail="The server holds as many long polls as it may.")
        if _held[player_id] >= settings.UNO_LONG_POLLS_PER_PLAYER:
            raise Throttled(wait=RECHECK, detail="You hold as many long polls as you may.")
        _held[player_id] += 1
    try:
        yield
    finally:
        with _changed:
            _held[player_id] -= 1
            if not _held[player_id]:
                del _held[player_id]


def poll(player_id: int, wait: float, fetch: Callable[[], T], ready: Callable[[T], bool]) -> T:
    """``fetch()`` once, then again after each write until ``ready`` or ``wait`` seconds passed."""
    if wait <= 0:
        return fetch()
    with _slot(player_id):
        deadline = time.monotonic() + wait
        with _changed:
            seen = _generation
        found = fetch()
        while not ready(found) and (left := deadline - time.monotonic()) > 0:
            with _changed:
                if _generation == seen:
                    _changed.wait(min(RECHECK, left))
                seen = _generation
            found = fetch()
        return found
