"""A Swiss round opening its tables, and a write elsewhere notifying the same players, both go
through. The round opens its tables in one transaction, and each table's start notifies its
players, whose notification locks (``streams/migrations/0004``) were taken table by table: the
round held the first table's players while it waited for a player of the second, whom a write
elsewhere held while it waited for one of the first table's. PostgreSQL ended one of the two, and
the round was not paired. The round now takes every lock it may need first, in the order of the
players' ids (``tournament_steps.Step.lock_notified``).

The race is made deterministic: the write elsewhere holds the lowest player's lock until the
round is seen waiting for it, then asks for the other players'."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from django.db import connection, transaction

from players.locks import lock_notified
from service.play import game_resign
from tests.support.players import MakePlayer
from tests.support.tournaments import create, folded, join_all, start_now

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30.0  # seconds: how long the other side may take to reach the lock it waits on


def _waiting_for_a_player() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'advisory'")
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def _await(condition: Future[None] | None, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not _waiting_for_a_player():
        if condition is not None and condition.done():
            raise AssertionError(f"{what} ended without waiting: {condition.exception()}")
        assert time.monotonic() < deadline, f"{what} never waited for a player's lock"
        threading.Event().wait(0.01)


def _resign(user_id: int, game_id: str) -> None:
    """The round's last table ends; its commit pairs the next round (in-process: no broker)."""
    from django.contrib.auth.models import User

    try:
        game_resign(player=User.objects.get(pk=user_id), game_id=game_id)
    finally:
        connection.close()


def _write_elsewhere(
    first: int, then: list[int], holding: threading.Event, go: threading.Event
) -> None:
    """A write that notifies ``first`` and then ``then`` (an invitation after a turn's notice)."""
    try:
        with transaction.atomic():
            lock_notified([first])
            holding.set()
            assert go.wait(WAIT)
            lock_notified(then)
    finally:
        connection.close()


def test_a_round_opening_its_tables_and_a_write_notifying_its_players_both_go_through(
    make_player: MakePlayer,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the notifications' lock order is PostgreSQL's (a trigger)")
    host = make_player("host")
    people = [make_player(f"sw{i}") for i in range(4)]
    lowest, others = people[0].id, [p.id for p in people[1:]]
    tournament = create(host, name="Locks", rounds=2, table_size=2)
    tid = tournament["id"]
    join_all(tid, people)
    start_now(tid)  # no broker: the first round is seated at once
    tables = folded(tid).tables
    assert len(tables) == 2
    lowest_table = next(t for t in tables if lowest in t.seats)
    other_table = next(t for t in tables if t is not lowest_table)
    _resign(lowest, lowest_table.game)  # the lowest loses: the next round seats them last

    holding, go = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        elsewhere = pool.submit(_write_elsewhere, lowest, others, holding, go)
        assert holding.wait(WAIT)
        paired = pool.submit(_resign, other_table.seats[0], other_table.game)
        _await(paired, "the round's pairing")
        go.set()  # the write elsewhere now asks for the other players
        elsewhere.result(timeout=WAIT)
        paired.result(timeout=WAIT)

    after = folded(tid)
    assert after.round == 2, "the second round was not paired"
    assert len([t for t in after.tables if t.round == 2]) == 2
