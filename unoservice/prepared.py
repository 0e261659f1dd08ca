"""The statements of the hot paths, run prepared on PostgreSQL: bound on the server, planned once.

Django's psycopg cursors bind values on the client (they quote them into the SQL text) and never
prepare, so PostgreSQL parses, analyses and plans every statement anew: under the service
benchmark's game actions that was about 40% of its CPU. The few statements every action runs
(the game's lock, the write of its events) and every call makes (the access token's check, the
game's read of a game view) go through ``run`` instead; the rest of the service keeps the ORM (the
hub's read of the news is prepared on its own listening connection, ``streams.hub``).
docs/performance.md has the measurements.

The ORM's compiler costs more Python than PostgreSQL takes to run such a statement (about
0.2 ms a statement, more with joins), so these statements are written out once, and their rows
turned into model instances by ``RowReader`` exactly as the ORM turns them (the fields'
converters, ``Model.from_db``).

What these statements send still shows in Django's query log (``connection.queries``, the tests'
query counts), one entry per round trip, and their errors are Django's (``OperationalError`` when
the database is gone, so a request answers 503 as the ORM's would).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

import psycopg
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from psycopg.pq import ExecStatus

# psycopg prepares a statement after this many executions, or when asked: these statements ask,
# and Django's cursors (which leave ``prepare`` unset) never reach it.
PREPARE_WHEN_ASKED = 2**31

Statement = tuple[str, Sequence[Any]]
Row = tuple[Any, ...]
M = TypeVar("M", bound=Model)


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


def _has_rows(cursor: psycopg.Cursor[Any]) -> bool:
    # What ``cursor.description is not None`` tells, without building a ``Column`` for each of
    # the result's columns (the game row has about 30: a tenth of the lock's Python).
    result = cursor.pgresult
    return result is not None and (result.nfields > 0 or result.status == ExecStatus.TUPLES_OK)


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
            returned = [c.fetchall() if _has_rows(c) else [] for c in cursors]
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


def fetch(
    connection: BaseDatabaseWrapper, statements: Sequence[Statement]
) -> list[tuple[Any, ...]]:
    """The rows ``statements`` return, in order: on PostgreSQL prepared and in one round trip
    (``run``); elsewhere (SQLite, ``make run``) one by one through a plain cursor."""
    if connection.vendor == "postgresql":
        return [tuple(row) for rows in run(connection, statements) for row in rows]
    returned: list[Row] = []
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
            if cursor.description is not None:
                returned.extend(cursor.fetchall())
    return returned


def write(
    connection: BaseDatabaseWrapper, statements: Sequence[Statement]
) -> list[tuple[Any, ...]]:
    """Run data-modifying ``statements`` (INSERT, UPDATE, DELETE; only the last may return rows,
    and no two may change the same row) and return the last one's rows.

    On PostgreSQL they travel as one statement: each but the last in a ``WITH``, the last after
    it. One prepared statement is one message and one result, where a pipeline of them costs the
    client a send and a result to process per statement (docs/performance.md, "The action's
    writes as one statement"). PostgreSQL runs the parts of one statement on one snapshot, in no
    set order, so they must not depend on each other's changes (a trigger reading a row another
    part changes sees it as it was). Elsewhere, one by one (``fetch``).
    """
    if connection.vendor != "postgresql" or len(statements) < 2:
        return fetch(connection, statements)
    *parts, (last, last_params) = statements
    params: list[Any] = []
    ctes = []
    for index, (sql, values) in enumerate(parts):
        ctes.append(f"w{index} AS ({sql})")
        params.extend(values)
    params.extend(last_params)
    return fetch(connection, [(f"WITH {', '.join(ctes)} {last}", params)])


@dataclass(frozen=True)
class RowReader(Generic[M]):
    """A model's concrete columns in a SELECT (``columns``, under the table's ``alias``) and the
    instance built from them as the ORM builds it: each field's database converters, then
    ``Model.from_db``. Build one per database vendor (the converters are the backend's)."""

    model: type[M]
    columns: str
    attnames: list[str]
    converters: list[tuple[int, Any, list[Any]]]  # (column index, column, converters)

    @classmethod
    def of(
        cls,
        model: type[M],
        connection: BaseDatabaseWrapper,
        alias: str,
        deferred: Collection[str] = (),
    ) -> RowReader[M]:
        """``deferred``: fields left out of the SELECT, loaded on first use as the ORM's
        ``defer`` leaves them."""
        fields = [f for f in model._meta.concrete_fields if f.name not in deferred]
        quote = connection.ops.quote_name
        converters = []
        for index, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            chain = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
            if chain:
                converters.append((index, column, chain))
        return cls(
            model,
            ", ".join(f"{alias}.{quote(str(f.column))}" for f in fields),
            [f.attname for f in fields],
            converters,
        )

    @property
    def width(self) -> int:
        return len(self.attnames)

    def build(self, connection: BaseDatabaseWrapper, row: Sequence[Any], start: int = 0) -> M:
        """The instance of the columns of ``row`` from ``start`` on."""
        values = list(row[start : start + self.width])
        for index, column, chain in self.converters:
            for convert in chain:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def as_uuid(value: object) -> uuid.UUID:
    """A uuid column's value as read here: PostgreSQL's arrives as one, SQLite keeps the hex."""
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


@dataclass(frozen=True)
class Listing(Generic[M]):
    """A list of ``model``'s rows (under the alias ``alias``) on the database ``db``, in its
    order, read as Django's paginator reads a list: ``count()``, then a slice (one page), each a
    statement written once and run prepared (``fetch``), where the ORM would compile both anew
    for every call. ``where`` holds the conditions, with ``params``."""

    model: type[M]
    db: str
    alias: str
    where: str
    params: tuple[Any, ...]
    order: str
    deferred: tuple[str, ...] = ()
    ordered = True  # the paginator warns of an unordered list

    def count(self) -> int:
        ((total,),) = fetch(connections[self.db], [self.count_statement])
        return int(total)

    @property
    def count_statement(self) -> Statement:
        return f"SELECT COUNT(*) FROM {self._table} WHERE {self.where}", self.params

    def __getitem__(self, index: slice) -> list[M]:
        """One page: ``[start:stop]``, as the paginator asks for it."""
        start, stop = index.start or 0, index.stop
        if index.step is not None or start < 0 or stop is None or stop < start:
            raise ValueError("A listing is read by pages: [start:stop].")
        connection = connections[self.db]
        reader = _listed(self.model, self.db, self.alias, self.deferred)
        sql = (
            f"SELECT {reader.columns} FROM {self._table} WHERE {self.where}"
            f" ORDER BY {self.order} LIMIT %s OFFSET %s"
        )
        rows = fetch(connection, [(sql, (*self.params, stop - start, start))])
        return [reader.build(connection, row) for row in rows]

    @property
    def _table(self) -> str:
        return f"{self.model._meta.db_table} {self.alias}"


@cache
def _listed(model: type[M], db: str, alias: str, deferred: tuple[str, ...]) -> RowReader[M]:
    return RowReader.of(model, connections[db], alias, deferred)
