"""Races over the players' notification locks (``players.locks``, the trigger of
``streams/migrations/0004``), made deterministic: a test holds one side until the other is seen
waiting for a lock, then lets it go on."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future
from typing import Any

from django.db import connection, transaction

from players.locks import lock_notified

WAIT = 30.0  # seconds: how long the other side may take to reach the lock it waits on


def waiting(*locktypes: str, at_least: int = 1) -> bool:
    """Whether another connection to the test database waits for a lock (of one of
    ``locktypes``, if any are given), or ``at_least`` such waits. The trigger takes advisory
    locks, one per player. Only this database's sessions count: pg_locks shows the whole
    server's, and a lock another suite waits for (a second test run beside this one) is no sign
    that this test's other side has reached its lock."""
    with connection.cursor() as cursor:
        # pg_stat_activity is read once a transaction, and the callers poll inside one (holding
        # the lock the other side waits for): without this a session that came since is unseen.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted"
            " AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())"
            " AND (cardinality(%s::text[]) = 0 OR locktype = ANY(%s::text[]))",
            [list(locktypes), list(locktypes)],
        )
        (count,) = cursor.fetchone()
    return bool(count >= at_least)


def await_waiting(other: Future[Any], what: str, *locktypes: str, at_least: int = 1) -> None:
    """Return once a connection waits for a lock (``waiting``), or ``at_least`` waits; fail if
    ``other`` ends first (it never met the lock) or nothing waits within ``WAIT``."""
    deadline = time.monotonic() + WAIT
    while not waiting(*locktypes, at_least=at_least):
        assert not other.done(), f"{what} ended without waiting: {other.exception()}"
        assert time.monotonic() < deadline, f"{what} never waited for a lock"
        threading.Event().wait(0.01)


def taken_in_order() -> bool:
    """Every connection waiting for a player's notification lock holds none of a higher id."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT w.pid FROM pg_locks AS w JOIN pg_locks AS h ON h.pid = w.pid"
            " WHERE w.locktype = 'advisory' AND NOT w.granted"
            " AND h.locktype = 'advisory' AND h.granted AND h.classid = w.classid"
            " AND h.objid > w.objid"
        )
        return cursor.fetchone() is None


def write_elsewhere(
    first: int, then: Iterable[int], holding: threading.Event, go: threading.Event
) -> None:
    """A write that notifies ``first``, sets ``holding``, and once ``go`` is set notifies
    ``then`` (an invitation after a turn's notice); run in a thread of its own."""
    try:
        with transaction.atomic():
            lock_notified([first])
            holding.set()
            assert go.wait(WAIT)
            lock_notified(then)
    finally:
        connection.close()
