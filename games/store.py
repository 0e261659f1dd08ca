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

from django.db import connection
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.concrete, name
    return field


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None, field
    return _quote(field.column)


@cache
def _select_sql(model: type[Model], vendor: str, lock: bool) -> str:
    meta = model._meta
    assert meta.pk is not None
    columns = ", ".join(_column(f) for f in meta.concrete_fields)
    suffix = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    return f"SELECT {columns} FROM {_quote(meta.db_table)} WHERE {_column(meta.pk)} = %s{suffix}"


@cache
def _converters(model: type[Model], vendor: str) -> list[tuple[int, list[Converter]]]:
    """Per column, the converters the ORM applies to a value read from this backend."""
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        chain = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if chain:
            found.append((index, chain))
    return found


def lock_row(model: type[M], pk: Any) -> M | None:
    """The row ``pk`` of ``model``, locked until the transaction ends (``select_for_update``)."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_row outside a transaction locks nothing.")
    meta = model._meta
    assert meta.pk is not None
    with connection.cursor() as cursor:
        cursor.execute(
            _select_sql(model, connection.vendor, True), [meta.pk.get_db_prep_value(pk, connection)]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, chain in _converters(model, connection.vendor):
        column = meta.concrete_fields[index].get_col(meta.db_table)
        for convert in chain:
            values[index] = convert(values[index], column, connection)
    attnames = [f.attname for f in meta.concrete_fields]
    return model.from_db(connection.alias, attnames, values)


@cache
def _insert_sql(model: type[Model], vendor: str, names: tuple[str, ...], rows: int) -> str:
    columns = ", ".join(_column(_field(model, name)) for name in names)
    values = ", ".join(["(" + ", ".join(["%s"] * len(names)) + ")"] * rows)
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES {values}"


@dataclass(frozen=True)
class Statement:
    sql: str
    params: list[Any]


def insert(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> Statement:
    """Insert ``rows`` (values in the order of the field ``names``; at least one row)."""
    fields = [_field(model, name) for name in names]
    params: list[Any] = []
    count = 0
    for row in rows:
        params += [f.get_db_prep_save(v, connection) for f, v in zip(fields, row, strict=True)]
        count += 1
    assert count, "an INSERT needs a row"
    return Statement(_insert_sql(model, connection.vendor, tuple(names), count), params)


@cache
def _update_sql(
    model: type[Model], vendor: str, names: tuple[str, ...], keys: tuple[str, ...]
) -> str:
    assignments = ", ".join(f"{_column(_field(model, n))} = %s" for n in names)
    condition = " AND ".join(f"{_column(_field(model, k))} = %s" for k in keys)
    return f"UPDATE {_quote(model._meta.db_table)} SET {assignments} WHERE {condition}"


def update(model: type[Model], values: Mapping[str, Any], where: Mapping[str, Any]) -> Statement:
    """Set the fields ``values`` of the rows whose fields equal ``where``."""
    params = [_field(model, n).get_db_prep_save(v, connection) for n, v in values.items()]
    params += [_field(model, k).get_db_prep_value(v, connection) for k, v in where.items()]
    return Statement(_update_sql(model, connection.vendor, tuple(values), tuple(where)), params)


def update_fields(instance: Model, names: Sequence[str]) -> Statement:
    """``instance.save(update_fields=names)``, ``auto_now`` included."""
    pk = instance._meta.pk
    assert pk is not None
    values = {}
    for name in names:
        field = _field(type(instance), name)
        values[field.attname] = field.pre_save(instance, add=False)
    return update(type(instance), values, {pk.attname: instance.pk})


def run(statements: Sequence[Statement]) -> None:
    """Run ``statements`` in order: on PostgreSQL in one round trip, elsewhere one by one.

    Django's psycopg cursors bind values on the client, so PostgreSQL takes several statements,
    separated by semicolons, in one query message; SQLite takes one statement per call.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            sql = ";\n".join(statement.sql for statement in statements)
            cursor.execute(sql, [p for statement in statements for p in statement.params])
        else:
            for statement in statements:
                cursor.execute(statement.sql, statement.params)
