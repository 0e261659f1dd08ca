"""Reads that may lag, sent to a streaming replica (``DATABASE_REPLICA_URL``; off when unset).

Nothing is routed by guessing: a selector whose answer may be a little behind (a list, a profile,
the leaderboard, a finished game's log or replay) says so with ``@lagging`` (or, when only some
calls may lag, ``with lagging_reads(when=...)``). Everything else reads and writes the primary:
every write, every read inside a transaction (the unit of work), and every read that must see
the caller's own write (the game view after an action, a stream's catch-up), which simply carry
no mark. With no replica configured the mark does nothing and every query goes to ``default``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

REPLICA = "replica"

P = ParamSpec("P")
R = TypeVar("R")

_lagging: ContextVar[bool] = ContextVar("uno_lagging_read", default=False)


def enabled() -> bool:
    """Is a replica configured (``DATABASE_REPLICA_URL``)?"""
    return REPLICA in settings.DATABASES


def read_alias() -> str:
    """Where a read made now goes: the replica inside a lagging read outside any transaction."""
    if _lagging.get() and enabled() and not connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return REPLICA
    return DEFAULT_DB_ALIAS


@contextlib.contextmanager
def lagging_reads(*, when: bool = True) -> Iterator[str]:
    """Reads made inside may come from the replica (if ``when``); yields where they go."""
    if not when:
        yield read_alias()
        return
    token = _lagging.set(True)
    try:
        yield read_alias()
    finally:
        _lagging.reset(token)


def lagging(selector: Callable[P, R]) -> Callable[P, R]:
    """Mark a selector whose answer may lag behind the primary. A query set it returns is bound
    to the alias chosen while it ran (it is evaluated later, outside the mark)."""

    @functools.wraps(selector)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with lagging_reads() as alias:
            result = selector(*args, **kwargs)
            if isinstance(result, QuerySet):
                return result.using(alias)
            return result

    return wrapped


class ReplicaRouter:
    """``DATABASE_ROUTERS`` when a replica is configured: writes and unmarked reads go to the
    primary; marked reads (``lagging``) to the replica. Instances read from the replica fetch
    their relations there too (Django's default for a read with an instance hint)."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str | None:
        alias = read_alias()
        return alias if alias == REPLICA else None

    def db_for_write(self, model: type[Any], **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database: the replica is a copy of the primary

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS
