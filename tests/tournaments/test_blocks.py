"""Blocks in tournaments (issue 27): two players who blocked each other (either way) are paired
at different tables where another seating exists, in every format, though the standings would
seat them together; the pairing is the pure function's with the blocks, and the tournament's
log (public) says nothing of them."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Tournament
from games.pairing import arena_tables, kept_together, swiss_tables
from service.tournament_records import standings_of
from tests.support.players import MakePlayer, Player
from tests.support.table import ok
from tests.support.tournaments import create, folded, join_all, log_of, start_now, url

pytestmark = pytest.mark.django_db

FORMATS: dict[str, dict[str, Any]] = {
    "swiss": {"format": "swiss", "rounds": 1},
    "duplicate": {"format": "duplicate", "rounds": 1},
    "arena": {"format": "arena", "rounds": None, "minutes": 30},
}


def _order(tournament_id: str) -> list[int]:
    """The standings before the start: the order the first pairing seats."""
    tournament = Tournament.objects.get(pk=tournament_id)
    return [row.player for row in standings_of(tournament, folded(tournament_id))]


def _people_at_tables(tournament_id: str) -> list[set[int]]:
    """The players of each table seated (the filling bots left out)."""
    return [
        {p for seat, p in enumerate(table.seats) if seat not in table.bots}
        for table in folded(tournament_id).tables
    ]


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_two_players_who_blocked_each_other_are_paired_apart(
    make_player: MakePlayer, name: str
) -> None:
    host = make_player("host")
    people: list[Player] = [make_player(f"bk{i}") for i in range(8)]
    size = 2 if name == "arena" else 4
    tid = create(host, table_size=size, **FORMATS[name])["id"]
    join_all(tid, people)
    order = _order(tid)
    by_id = {p.id: p for p in people}
    first, second = order[0], order[1]  # the standings seat them together ...
    alone = (
        arena_tables(order, {p: i for i, p in enumerate(order)}, size, short=True)
        if name == "arena"
        else swiss_tables(order, size, {})
    )
    assert any({first, second} <= set(table) for table in alone)
    ok(by_id[second].client.post(f"/api/v1/players/{first}/block/"), 201)  # ... but for this

    start_now(tid)
    assert ok(host.client.get(url(tid)))["status"] == "running"
    tables = _people_at_tables(tid)
    assert sorted(p for table in tables for p in table) == sorted(order)
    assert not any({first, second} <= table for table in tables)
    apart = {first: {second}, second: {first}}
    expected = (
        arena_tables(order, {p: i for i, p in enumerate(order)}, size, short=True, apart=apart)
        if name == "arena"
        else swiss_tables(order, size, {}, apart)
    )
    assert kept_together(expected, apart) == 0
    assert sorted(map(sorted, tables)) == sorted(map(sorted, expected))
    # The log, which anyone may read, does not tell who blocked whom.
    assert "block" not in repr([e["data"] for e in log_of(tid)])


def test_players_who_blocked_each_other_share_a_table_when_no_other_exists(
    make_player: MakePlayer,
) -> None:
    host = make_player("host")
    ada, bob, cy = (make_player(name) for name in ("ada", "bob", "cy"))
    tid = create(host, table_size=3)["id"]
    join_all(tid, [ada, bob, cy])
    ok(ada.client.post(f"/api/v1/players/{bob.id}/block/"), 201)
    start_now(tid)
    assert _people_at_tables(tid) == [{ada.id, bob.id, cy.id}]
