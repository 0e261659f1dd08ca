"""The game list's reads, written out and run prepared (``unoservice.prepared``): its count, one
page of its games, and the seats' statuses of that page.

A page of 16 games through the ORM cost about 6 ms of Python, most of it compiling the three
queries (the visibility's ``Exists``, the filters, the count's aggregate) and building the rows:
more than PostgreSQL takes to run them (docs/performance.md, "A page of games"). The list has a
few shapes only (who may see which games, a status, the caller's own games, those waiting on
the caller), so each is written here once (``prepared.Listing``); the games are built as the ORM
builds them, with the engine snapshot left unread as ``defer("state")`` left it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.db import connections

from games.models import Game, GameStatus, Seat
from unoservice import prepared

_SEATS = Seat._meta.db_table
# A seat of the caller at the listed game ``g``; ``AND`` more to narrow it.
_SEATED = f"EXISTS (SELECT 1 FROM {_SEATS} s WHERE s.game_id = g.id AND s.player_id = %s"
# The current seat's roster entry names no bot: its own player moves, not a bot that took the
# seat over when they left (``bot_takeover``; ``models.sees_its_seat``), by vendor.
_PERSON_MOVES = {
    "postgresql": "(NOT g.bot_takeover OR (g.roster -> g.current_seat -> 'bot') IS NULL)",
    "sqlite": "(NOT g.bot_takeover OR "
    "json_extract(g.roster, '$[' || g.current_seat || '].bot') IS NULL)",
}


def listing(
    db: str,
    *,
    player_id: int,
    staff: bool,
    status: str | None,
    mine: bool,
    my_turn: bool,
) -> prepared.Listing[Game]:
    """The games ``player_id`` may list (``selectors.may_see``: private games only at their own
    seats, unless staff), narrowed as asked; the newest first, or for ``my_turn`` the nearest
    deadline first (not those a bot plays on for the caller, who left them)."""
    where: list[str] = []
    params: list[Any] = []
    if not staff:
        where.append(f"(g.private = %s OR {_SEATED}))")
        params += [False, player_id]
    if status is not None:
        # Written out, not bound (one of GameStatus's values, checked): a generic plan of a bound
        # status cannot read the partial indexes of one status (the lobby's waiting games), and
        # counted the whole lobby through the heap, a read that grew with the games stored.
        where.append(f"g.status = '{GameStatus(status).value}'")
    if my_turn:
        where.append(f"{_SEATED} AND s.number = g.current_seat) AND g.status = %s")
        where.append(_PERSON_MOVES[connections[db].vendor])
        params += [player_id, GameStatus.ACTIVE.value]
    elif mine:
        where.append(f"{_SEATED})")
        params.append(player_id)
    order = "g.turn_deadline ASC, g.created_at ASC" if my_turn else "g.created_at DESC"
    # A list never reads the engine snapshot: it is left in the database, as ``defer`` leaves it.
    conditions = " AND ".join(where) or "TRUE"
    return prepared.Listing(Game, db, "g", conditions, tuple(params), order, deferred=("state",))


def seat_statuses(db: str, game_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[int, str]]:
    """The statuses of the seats of ``game_ids``, by game and seat number."""
    statuses: dict[uuid.UUID, dict[int, str]] = {game_id: {} for game_id in game_ids}
    if not game_ids:
        return statuses
    connection = connections[db]
    sql = f"SELECT game_id, number, status FROM {_SEATS} WHERE game_id"
    statement: prepared.Statement
    if connection.vendor == "postgresql":  # one statement for any number of games
        statement = (f"{sql} = ANY(%s)", [list(game_ids)])
    else:
        key = Game._meta.get_field("id")
        marks = ", ".join(["%s"] * len(game_ids))
        keys = [key.get_db_prep_value(game_id, connection) for game_id in game_ids]
        statement = (f"{sql} IN ({marks})", keys)
    for game_id, number, status in prepared.fetch(connection, [statement]):
        statuses[prepared.as_uuid(game_id)][number] = status
    return statuses
