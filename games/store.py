"""The SQL of the write path: lock a game row, then insert and update rows in one round trip.

Every action runs these statements, and the ORM compiles a query anew each time it runs one
(about 0.2 ms of Python per statement here, more than PostgreSQL takes to execute it). Here each
statement's text is built once per (table, columns) and then only executed, and the writes of one
action travel together (``run``). Values go through the model fields' own database preparation
and converters, so what is written and read is exactly what the ORM would write and read, on
PostgreSQL and on SQLite alike. docs/performance.md has the measurements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


def _db() -> BaseDatabaseWrapper:
    # Looked up once per call: each use of ``django.db.connection`` is a thread-local lookup.
    return connections[DEFAULT_DB_ALIAS]


@dataclass(frozen=True)
class Statement:
    sql: str
    params: list[Any]


@dataclass(frozen=True)
class _Columns:
    """Fields of a model by name, and their quoted columns, for a backend."""

    fields: tuple[Field[Any, Any], ...]
    columns: tuple[str, ...]


@cache
def _columns(model: type[Model], vendor: str, names: tuple[str, ...]) -> _Columns:
    db = _db()
    fields = []
    for name in names:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.concrete and field.column, name
        fields.append(field)
    return _Columns(tuple(fields), tuple(db.ops.quote_name(f.column) for f in fields))  # type: ignore[arg-type]


# --- reading a row under lock ----------------------------------------------------------------


@dataclass(frozen=True)
class _RowReader:
    sql: str
    attnames: list[str]
    converters: list[tuple[int, Any, list[Converter]]]  # (index, column, converters)


@cache
def _row_reader(model: type[Model], vendor: str) -> _RowReader:
    db = _db()
    meta = model._meta
    assert meta.pk is not None
    names = tuple(f.name for f in meta.concrete_fields)
    columns = ", ".join(_columns(model, vendor, names).columns)
    key = _columns(model, vendor, (meta.pk.name,)).columns[0]
    lock = " FOR UPDATE" if db.features.has_select_for_update else ""
    converters = []
    for index, field in enumerate(meta.concrete_fields):
        column = field.get_col(meta.db_table)
        chain = db.ops.get_db_converters(column) + field.get_db_converters(db)
        if chain:
            converters.append((index, column, chain))
    return _RowReader(
        f"SELECT {columns} FROM {db.ops.quote_name(meta.db_table)} WHERE {key} = %s{lock}",
        [f.attname for f in meta.concrete_fields],
        converters,
    )


def lock_row(model: type[M], pk: Any) -> M | None:
    """The row ``pk`` of ``model``, locked until the transaction ends (``select_for_update``)."""
    db = _db()
    if not db.in_atomic_block:
        raise TransactionManagementError("lock_row outside a transaction locks nothing.")
    reader = _row_reader(model, db.vendor)
    assert model._meta.pk is not None
    with db.cursor() as cursor:
        cursor.execute(reader.sql, [model._meta.pk.get_db_prep_value(pk, db)])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, column, chain in reader.converters:
        for convert in chain:
            values[index] = convert(values[index], column, db)
    return model.from_db(db.alias, reader.attnames, values)


# --- writing ---------------------------------------------------------------------------------


@cache
def _insert_sql(model: type[Model], vendor: str, names: tuple[str, ...], rows: int) -> str:
    table = _db().ops.quote_name(model._meta.db_table)
    columns = ", ".join(_columns(model, vendor, names).columns)
    values = ", ".join(["(" + ", ".join(["%s"] * len(names)) + ")"] * rows)
    return f"INSERT INTO {table} ({columns}) VALUES {values}"


def insert(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> Statement:
    """Insert ``rows`` (values in the order of the field ``names``; at least one row)."""
    db = _db()
    names = tuple(names)
    fields = _columns(model, db.vendor, names).fields
    params: list[Any] = []
    count = 0
    for row in rows:
        params += [f.get_db_prep_save(v, db) for f, v in zip(fields, row, strict=True)]
        count += 1
    assert count, "an INSERT needs a row"
    return Statement(_insert_sql(model, db.vendor, names, count), params)


@cache
def _update_sql(
    model: type[Model], vendor: str, names: tuple[str, ...], keys: tuple[str, ...]
) -> str:
    table = _db().ops.quote_name(model._meta.db_table)
    assignments = ", ".join(f"{c} = %s" for c in _columns(model, vendor, names).columns)
    condition = " AND ".join(f"{c} = %s" for c in _columns(model, vendor, keys).columns)
    return f"UPDATE {table} SET {assignments} WHERE {condition}"


def update(model: type[Model], values: Mapping[str, Any], where: Mapping[str, Any]) -> Statement:
    """Set the fields ``values`` of the rows whose fields equal ``where``."""
    db = _db()
    names, keys = tuple(values), tuple(where)
    value_fields = _columns(model, db.vendor, names).fields
    key_fields = _columns(model, db.vendor, keys).fields
    params = [f.get_db_prep_save(v, db) for f, v in zip(value_fields, values.values(), strict=True)]
    params += [f.get_db_prep_value(v, db) for f, v in zip(key_fields, where.values(), strict=True)]
    return Statement(_update_sql(model, db.vendor, names, keys), params)


def update_fields(instance: Model, names: Sequence[str]) -> Statement:
    """``instance.save(update_fields=names)``, ``auto_now`` included."""
    model, db = type(instance), _db()
    pk = model._meta.pk
    assert pk is not None
    fields = _columns(model, db.vendor, tuple(names)).fields
    values = {field.attname: field.pre_save(instance, add=False) for field in fields}
    return update(model, values, {pk.attname: instance.pk})


def run(statements: Sequence[Statement]) -> None:
    """Run ``statements`` in order: on PostgreSQL in one round trip, elsewhere one by one.

    Django's psycopg cursors bind values on the client, so PostgreSQL takes several statements,
    separated by semicolons, in one query message; SQLite takes one statement per call.
    """
    db = _db()
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            sql = ";\n".join(statement.sql for statement in statements)
            cursor.execute(sql, [p for statement in statements for p in statement.params])
        else:
            for statement in statements:
                cursor.execute(statement.sql, statement.params)
