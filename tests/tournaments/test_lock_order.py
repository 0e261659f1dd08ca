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
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import User
from django.db import connection

from service.play import game_resign
from tests.support.locks import WAIT, await_waiting, write_elsewhere
from tests.support.players import MakePlayer
from tests.support.tournaments import create, folded, join_all, start_now

pytestmark = pytest.mark.django_db(transaction=True)


def _resign(user_id: int, game_id: str) -> None:
    """The round's last table ends; its commit pairs the next round (in-process: no broker)."""
    try:
        game_resign(player=User.objects.get(pk=user_id), game_id=game_id)
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
        elsewhere = pool.submit(write_elsewhere, lowest, others, holding, go)
        assert holding.wait(WAIT)
        paired = pool.submit(_resign, other_table.seats[0], other_table.game)
        await_waiting(paired, "the round's pairing", "advisory")
        go.set()  # the write elsewhere now asks for the other players
        elsewhere.result(timeout=WAIT)
        paired.result(timeout=WAIT)

    after = folded(tid)
    assert after.round == 2, "the second round was not paired"
    assert len([t for t in after.tables if t.round == 2]) == 2
