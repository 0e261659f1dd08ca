"""The event store: lock a game, load its state, read its log, and append events with their
projections.

These are the statements every action runs, so they are plain SQL written once: the ORM compiles
each query anew (about 0.2 ms of Python a statement here, more than PostgreSQL takes to run it).
An action costs four round trips: BEGIN, the lock, every write at once, COMMIT. On PostgreSQL
the lock and the writes run prepared (``unoservice.prepared``), the writes as one statement:
PostgreSQL parses and plans each of them once per connection rather than once per action. Values
go through the model fields' own preparation and converters (on PostgreSQL the rows of the write
as JSON, which PostgreSQL reads into the same columns), so what is written and read is what the
ORM would write and read, on PostgreSQL and on SQLite. Everything else (the lobby, reads) uses
the ORM. docs/performance.md has the measurements.
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

from games import engine
from games.engine.snapshot import state_from_data
from games.fairness import event_hash
from games.models import Event, Game, Hand
from unoservice import prepared
from unoservice.errors import DomainError
from unoservice.prepared import Statement

Standing = tuple[str, int]  # a seat's (status, score)


@dataclass(frozen=True)
class Changes:
    """The projection rows a write rewrites, by seat (``games.projections.changes`` says which)."""

    standings: dict[int, Standing] = dataclasses.field(default_factory=dict)
    hands: dict[int, tuple[str, ...]] = dataclasses.field(default_factory=dict)


# --- reading the log ---------------------------------------------------------------------------


def select_events(
    game_id: str | uuid.UUID,
    after: int = 0,
    limit: int | None = None,
    *,
    until: int | None = None,
    types: Sequence[str] = (),
) -> QuerySet[Event]:
    """The log of ``game_id`` after seq ``after`` (up to ``until``, of ``types`` only), in seq
    order, at most ``limit`` events: the one reader of the log. The streams' read of news
    (``streams.hub``, prepared on the listening connection) reads the same rows in SQL."""
    rows = Event.objects.filter(game_id=game_id, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    if types:
        rows = rows.filter(type__in=types)
    rows = rows.order_by("seq")
    return rows if limit is None else rows[:limit]


# The news of several games in one statement (the streams' read, ``streams.hub``, prepares it on
# its listening connection): for each game id of ``$1`` its summary and its events after the seq
# of ``$2`` at the same place, at most ``$3`` of them, one snapshot for all.
NEWS_OF_GAMES = f"""SELECT g.id::text, g.status, g.sealed, g.version, g.roster,
        e.seq, e.type, e.seat, e.data, e.created_at, e.hash
    FROM unnest($1, $2) AS w(game_id, after)
    JOIN {Game._meta.db_table} AS g ON g.id = w.game_id
    LEFT JOIN LATERAL (
        SELECT seq, type, seat, data, created_at, hash FROM {Event._meta.db_table}
        WHERE game_id = w.game_id AND seq > w.after ORDER BY seq LIMIT $3
    ) AS e ON true
    ORDER BY g.id, e.seq"""


def as_log(rows: Iterable[Event]) -> Iterator[engine.Event]:
    """Stored events as the engine folds them."""
    return ({"type": row.type, "seat": row.seat, "data": row.data} for row in rows)


def last_seq_of(game_id: str | uuid.UUID, type_: str) -> int | None:
    """The seq of the game's latest event of ``type_`` (None: there is none)."""
    rows = select_events(game_id, types=(type_,)).reverse().values_list("seq", flat=True)
    return rows.first()


def _db() -> BaseDatabaseWrapper:
    # Looked up once per call: each use of ``django.db.connection`` is a thread-local lookup.
    return connections[DEFAULT_DB_ALIAS]


def parse_game_id(game_id: str | uuid.UUID) -> uuid.UUID:
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise DomainError("not_found", "No such game.") from None


# --- the game row ------------------------------------------------------------------------------


@cache
def _game_reader(vendor: str) -> prepared.RowReader[Game]:
    return prepared.RowReader.of(Game, _db(), Game._meta.db_table)


def _read_game(game_id: str | uuid.UUID, lock: bool) -> Game:
    db = _db()
    reader = _game_reader(db.vendor)
    key = Game._meta.get_field("id").get_db_prep_value(parse_game_id(game_id), db)
    locking = " FOR UPDATE" if lock and db.features.has_select_for_update else ""
    sql = f"SELECT {reader.columns} FROM {Game._meta.db_table} WHERE id = %s{locking}"
    found = prepared.fetch(db, [(sql, [key])])
    if not found:
        raise DomainError("not_found", "No such game.")
    return reader.build(db, found[0])


def lock_game(game_id: str | uuid.UUID) -> Game:
    """The game row, locked until the transaction ends (``select_for_update``)."""
    if not _db().in_atomic_block:
        raise TransactionManagementError("lock_game outside a transaction locks nothing.")
    return _read_game(game_id, lock=True)


def read_game(game_id: str | uuid.UUID) -> Game:
    """The game row as it is now, unlocked (a game view's read: ``Game.objects.get`` by its key,
    without the ORM's compile). ``not_found`` for an id that names no game."""
    return _read_game(game_id, lock=False)


def load_state(game: Game) -> engine.GameState:
    """The engine state after the game's last event (its snapshot): a game not started has none."""
    if game.state is None:
        raise DomainError("game_not_active", f"The game is {game.status}.")
    return state_from_data(game.state)


# --- appending ---------------------------------------------------------------------------------

# The columns of the game row that appending events changes.
_PROGRESS = (
    "version",
    "state",
    "status",
    "winner_seat",
    "winner_team",
    "finished_at",
    "current_seat",
    "turn_deadline",
    "last_hash",
    "turn_started_at",
    "remind_at",
    "away",
)


def _prep(model: type[Any], name: str, value: Any, db: BaseDatabaseWrapper) -> Any:
    return model._meta.get_field(name).get_db_prep_save(value, db)


def save(
    game: Game,
    first_seq: int,
    events: Sequence[engine.Event],
    changes: Changes,
    now: datetime,
    also: Sequence[Statement] = (),
) -> list[tuple[Any, ...]]:
    """Insert ``events`` from ``first_seq`` on, save the game's progress and the changed rows.

    ``game`` already holds its new summary (``projections.project_summary``). On PostgreSQL the
    statements travel as one, prepared (``unoservice.prepared.write``); the events, hands and
    seats go as JSON arrays, so the statement's text is the same for any number of them (a
    prepared statement per shape, not per count).
    ``also`` are rows written with the events in that statement (the notification outbox,
    ``notifications.outbox.statements_with``); what they return (``RETURNING``) is returned.

    Each event is chained to the one before (``games.fairness``): its hash covers the game's
    ``last_hash``, which the locked row holds, so no read of the previous event is needed.
    """
    db = _db()
    key = _prep(Game, "id", game.pk, db)
    statements: list[Statement] = []
    if events:
        statements.append(_insert_events(game, key, first_seq, events, now, db))
    progress = [_prep(Game, name, getattr(game, name), db) for name in _PROGRESS]
    statements.append((_UPDATE_PROGRESS, [*progress, _prep(Game, "updated_at", now, db), key]))
    statements += _update_rows(key, changes, db)
    statements.extend(also)
    returned = prepared.write(db, statements)
    game.updated_at = now
    return returned


_ASSIGNMENTS = ", ".join(f'"{name}" = %s' for name in _PROGRESS)
_UPDATE_PROGRESS = f'UPDATE "games_game" SET {_ASSIGNMENTS}, "updated_at" = %s WHERE "id" = %s'
_EVENT_COLUMNS = '"games_event" ("game_id", "seq", "type", "seat", "data", "hash", "created_at")'
# On PostgreSQL the rows go as one JSON array each: the statement's text is the same for any
# number of them, and the parameter is one string made by ``json.dumps`` (arrays of values, one
# parameter per column, cost psycopg more Python to send than the statements they spare).
_INSERT_EVENTS = (
    f"INSERT INTO {_EVENT_COLUMNS}"
    " SELECT %s, e.seq, e.type, e.seat, e.data, e.hash, %s"
    " FROM jsonb_to_recordset(%s::jsonb)"
    " AS e (seq integer, type text, seat smallint, data jsonb, hash text) ORDER BY e.seq"
)
_UPDATE_HANDS = (
    'UPDATE "games_hand" AS h SET "cards" = c.cards'
    " FROM jsonb_to_recordset(%s::jsonb) AS c (seat smallint, cards jsonb)"
    ' WHERE h."game_id" = %s AND h."seat" = c.seat'
)
_UPDATE_SEATS = (
    'UPDATE "games_seat" AS s SET "status" = c.status, "score" = c.score'
    " FROM jsonb_to_recordset(%s::jsonb) AS c (seat smallint, status text, score integer)"
    ' WHERE s."game_id" = %s AND s."number" = c.seat'
)


def _insert_events(
    game: Game,
    key: Any,
    first_seq: int,
    events: Sequence[engine.Event],
    now: datetime,
    db: BaseDatabaseWrapper,
) -> Statement:
    hashes = []
    previous = game.last_hash
    for seq, item in enumerate(events, first_seq):
        previous = event_hash(previous, seq, item["type"], item["seat"], item["data"])
        hashes.append(previous)
    game.last_hash = previous
    created_at = _prep(Event, "created_at", now, db)
    if db.vendor == "postgresql":
        rows = [
            {**item, "seq": seq, "hash": hashed}
            for seq, (item, hashed) in enumerate(zip(events, hashes, strict=True), first_seq)
        ]
        return _INSERT_EVENTS, [key, created_at, json.dumps(rows)]
    params: list[Any] = []
    for seq, (item, hashed) in enumerate(zip(events, hashes, strict=True), first_seq):
        data = _prep(Event, "data", item["data"], db)
        params += [key, seq, item["type"], item["seat"], data, hashed, created_at]
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(events))
    return f"INSERT INTO {_EVENT_COLUMNS} VALUES {values}", params


def _update_rows(key: Any, changes: Changes, db: BaseDatabaseWrapper) -> list[Statement]:
    """The changed hands and seats (their standings): on PostgreSQL one statement for each."""
    statements: list[Statement] = []
    hands, standings = changes.hands, changes.standings
    if db.vendor == "postgresql":
        if hands:
            cards = [{"seat": seat, "cards": list(held)} for seat, held in hands.items()]
            statements.append((_UPDATE_HANDS, [json.dumps(cards), key]))
        if standings:
            seats = [
                {"seat": seat, "status": status, "score": score}
                for seat, (status, score) in standings.items()
            ]
            statements.append((_UPDATE_SEATS, [json.dumps(seats), key]))
        return statements
    for seat, held in hands.items():
        statements.append(
            (
                'UPDATE "games_hand" SET "cards" = %s WHERE "game_id" = %s AND "seat" = %s',
                [_prep(Hand, "cards", list(held), db), key, seat],
            )
        )
    for seat, (status, score) in standings.items():
        statements.append(
            (
                'UPDATE "games_seat" SET "status" = %s, "score" = %s'
                ' WHERE "game_id" = %s AND "number" = %s',
                [status, score, key, seat],
            )
        )
    return statements


# Rows a started game needs beside the log: one hand per seat (Seat rows come with the players).
def create_hands(game: Game, seats: int) -> None:
    Hand.objects.bulk_create(Hand(game=game, seat=seat, cards=[]) for seat in range(seats))
