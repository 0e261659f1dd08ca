"""The statements of the hot paths, run prepared on PostgreSQL: bound on the server, planned once.

Django's psycopg cursors bind values on the client (they quote them into the SQL text) and never
prepare, so PostgreSQL parses, analyses and plans every statement anew: under the service
benchmark's game actions that was about 40% of its CPU. The few statements every action runs
(the game's lock, the write of its events) go through ``run`` instead; the rest of the service
keeps the ORM (the hub's read of the news is prepared on its own listening connection,
``streams.hub``). docs/performance.md has the measurements.

What these statements send still shows in Django's query log (``connection.queries``, the tests'
query counts), one entry per round trip, and their errors are Django's (``OperationalError`` when
the database is gone, so a request answers 503 as the ORM's would).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db.backends.base.base import BaseDatabaseWrapper

# psycopg prepares a statement after this many executions, or when asked: these statements ask,
# and Django's cursors (which leave ``prepare`` unset) never reach it.
PREPARE_WHEN_ASKED = 2**31

Statement = tuple[str, Sequence[Any]]


def _raw(connection: BaseDatabaseWrapper) -> psycopg.Connection[Any]:
    connection.ensure_connection()
    raw: psycopg.Connection[Any] = connection.connection
    if raw.prepare_threshold is None:  # a connection Django just opened
        # Django turns psycopg's preparing off, and psycopg then ignores ``prepare=True`` too.
        # Prepared, PostgreSQL would still plan each execution for its values at first (and for
        # an array of unknown length the generic plan's estimate looks dearer), though the plan
        # is the same for any values: these statements are planned once.
        raw.prepare_threshold = PREPARE_WHEN_ASKED
        with psycopg.Cursor(raw) as cursor:
            cursor.execute("SET plan_cache_mode = force_generic_plan")
    return raw


def run(connection: BaseDatabaseWrapper, statements: Sequence[Statement]) -> list[list[Any]]:
    """Run ``statements`` prepared, in order, in one round trip; the rows each one returns.

    More than one travel in a pipeline (psycopg's pipeline mode): each is its own prepared
    statement, and PostgreSQL runs them in the connection's transaction like a multi-statement
    message. A statement that fails raises, and those after it do not run.
    """
    with connection.wrap_database_errors:
        raw = _raw(connection)
        began = time.monotonic()
        cursors = [psycopg.Cursor(raw) for _ in statements]
        try:
            if len(statements) == 1:
                cursors[0].execute(statements[0][0], statements[0][1], prepare=True)
            else:
                with raw.pipeline():
                    for cursor, (sql, params) in zip(cursors, statements, strict=True):
                        cursor.execute(sql, params, prepare=True)
            returned = [c.fetchall() if c.description is not None else [] for c in cursors]
        finally:
            for cursor in cursors:
                cursor.close()
    if connection.queries_logged:
        connection.queries_log.append(
            {
                "sql": ";\n".join(sql for sql, _ in statements),
                "time": f"{time.monotonic() - began:.3f}",
            }
        )
    return returned
