"""The fairness fields a view should show, computed here from the database with hashlib alone
(not with ``games.fairness``), and a way to tamper with the append-only log."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import connection, transaction

from games.models import Game, GameStatus


def committed(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def fairness_fields(game_id: str) -> dict[str, Any]:
    """``deck_commitment`` always; ``seed`` and ``salt`` once the game is finished."""
    game = Game.objects.get(pk=game_id)
    shown: dict[str, Any] = {"deck_commitment": committed(game.seed, game.salt)}
    if game.status == GameStatus.FINISHED:
        shown |= {"seed": game.seed, "salt": game.salt}
    return shown


def chained(events: list[dict[str, Any]]) -> list[str]:
    """The hashes the contract's formula gives ``events`` (each with seq, type, seat, data)."""
    previous, hashes = "0" * 64, []
    for item in events:
        canonical = json.dumps(
            {key: item[key] for key in ("seq", "type", "seat", "data")},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        previous = hashlib.sha256((previous + canonical).encode("utf-8")).hexdigest()
        hashes.append(previous)
    return hashes


def tamper(sql: str, params: list[Any]) -> None:
    """Run an UPDATE the append-only trigger refuses, as an operator with superuser rights
    could: ``session_replication_role = replica`` skips ordinary triggers, for this transaction
    only (the test database's user is PostgreSQL's superuser)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
