"""GET /api/v1/games/: filters (status, mine, my_turn) and DRF pagination."""

from __future__ import annotations

import gc
import itertools
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from games.listing import listing
from games.models import Game
from tests.support.players import Player
from tests.support.table import GAMES, create_game, game_url, ok, refused, start_table

pytestmark = pytest.mark.django_db


def ids(client: APIClient, **query: Any) -> list[str]:
    page = ok(client.get(GAMES, query))
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == len(page["results"]), "more than one page"
    return [game["id"] for game in page["results"]]


@pytest.fixture
def lobby(players: list[Player]) -> dict[str, Any]:
    ada, bob, cy, dee = players
    waiting = create_game(ada, max_players=3)["id"]
    bobs = create_game(bob)["id"]
    ok(dee.client.post(game_url(bobs, "join")))
    active = start_table([ada, bob], seed=1)
    finished = start_table([cy, ada], seed=2)
    ok(finished.client(0).post(finished.url("resign")))
    abandoned = create_game(dee)["id"]
    ok(dee.client.post(game_url(abandoned, "leave")))
    return {
        "waiting": waiting,
        "bobs": bobs,
        "active": active,
        "finished": finished.id,
        "abandoned": abandoned,
    }


def test_the_list_shows_every_game_newest_first(
    players: list[Player], lobby: dict[str, Any]
) -> None:
    page = ok(players[2].client.get(GAMES))

    assert page["count"] == 5 and page["next"] is None and page["previous"] is None
    assert [g["id"] for g in page["results"]] == [
        lobby["abandoned"],
        lobby["finished"],
        lobby["active"].id,
        lobby["bobs"],
        lobby["waiting"],
    ]
    summary = page["results"][2]
    assert set(summary) >= {
        "id",
        "status",
        "version",
        "settings",
        "seats",
        "current_seat",
        "turn_deadline",
        "winner_seat",
        "created_at",
    }
    assert summary["status"] == "active" and summary["version"] > 0
    assert [s["player"]["id"] for s in summary["seats"]] == [p.id for p in players[:2]]
    assert "hand" not in str(summary) and "seed" not in summary["settings"]


def test_status_filter(players: list[Player], lobby: dict[str, Any]) -> None:
    client = players[3].client
    assert ids(client, status="waiting") == [lobby["bobs"], lobby["waiting"]]
    assert ids(client, status="active") == [lobby["active"].id]
    assert ids(client, status="finished") == [lobby["finished"]]
    assert ids(client, status="abandoned") == [lobby["abandoned"]]


def test_mine_filter(players: list[Player], lobby: dict[str, Any], outsider: Player) -> None:
    ada, _, cy, dee = players
    assert ids(ada.client, mine="true") == [lobby["finished"], lobby["active"].id, lobby["waiting"]]
    assert ids(dee.client, mine="true") == [lobby["bobs"]]  # no longer seated in the abandoned one
    assert ids(cy.client, mine=True, status="finished") == [lobby["finished"]]
    assert ids(outsider.client, mine="true") == []
    assert len(ids(outsider.client, mine="false")) == 5


def test_my_turn_filter(players: list[Player], lobby: dict[str, Any]) -> None:
    cy = players[2]
    table = lobby["active"]
    actor = table.actor()
    assert ids(table.players[actor].client, my_turn="true") == [table.id]
    assert ids(table.players[1 - actor].client, my_turn="true") == []
    assert ids(cy.client, my_turn="true") == []  # finished games wait for no one

    table.act(actor, "draw")
    now = table.actor()
    assert ids(table.players[now].client, my_turn="true") == [table.id]
    if now != actor:
        assert ids(table.players[actor].client, my_turn="true") == []


def test_my_turn_lists_the_nearest_deadline_first(players: list[Player]) -> None:
    ada, bob, cy, _ = players
    tables = [start_table([ada, other], seed=seed) for seed, other in ((3, bob), (4, cy), (5, bob))]
    for table in tables:  # ada to act in each
        if table.actor() != 0:
            table.act(table.actor(), "draw")
        while table.actor() != 0:
            table.act(table.actor(), "pass")
    now = timezone.now()
    for hours, table in zip((5, 1, 3), tables, strict=True):  # deadlines: the second is nearest
        Game.objects.filter(pk=table.id).update(turn_deadline=now + timedelta(hours=hours))

    assert ids(ada.client, my_turn="true") == [tables[1].id, tables[2].id, tables[0].id]
    assert ids(ada.client, my_turn="true", status="active") == [
        tables[1].id,
        tables[2].id,
        tables[0].id,
    ]
    assert ids(bob.client, my_turn="true") == []


def test_a_private_game_is_listed_to_its_players_and_staff_only(
    players: list[Player], staff: Player, outsider: Player
) -> None:
    ada, bob = players[:2]
    private = create_game(ada, max_players=2, private=True)["id"]
    public = create_game(bob)["id"]

    assert ids(ada.client) == [public, private]
    assert ids(staff.client) == [public, private]
    assert ids(outsider.client) == [public]
    assert ids(outsider.client, status="waiting") == [public]
    assert ids(bob.client, mine="true") == [public]


def test_pagination(players: list[Player]) -> None:
    ada = players[0]
    made = [create_game(ada)["id"] for _ in range(5)][::-1]
    client = ada.client

    first = ok(client.get(GAMES, {"page_size": 2}))
    assert first["count"] == 5 and first["previous"] is None
    assert [g["id"] for g in first["results"]] == made[:2]
    assert "page=2" in first["next"] and "page_size=2" in first["next"]

    seen, page = [], first
    while True:
        seen += [g["id"] for g in page["results"]]
        if page["next"] is None:
            break
        page = ok(client.get(page["next"]))
        assert page["previous"] is not None
    assert seen == made

    last = ok(client.get(GAMES, {"page_size": 2, "page": 3}))
    assert [g["id"] for g in last["results"]] == made[4:] and last["next"] is None
    refused(client.get(GAMES, {"page_size": 2, "page": 4}), 404, "not_found")


@pytest.mark.parametrize(
    "query",
    [
        {"status": "bogus"},
        {"status": ""},
        {"mine": "perhaps"},
        {"my_turn": "2x"},
        {"page": 0},
        {"page": "first"},
        {"page_size": 0},
        {"page_size": 101},
        {"colour": "red"},
    ],
)
def test_bad_filters_are_invalid(players: list[Player], query: dict[str, Any]) -> None:
    refused(players[0].client.get(GAMES, query), 400, "invalid")


def test_a_longer_page_of_games_leaves_no_more_garbage_for_the_collector(
    players: list[Player],
) -> None:
    """A listed game is freed as soon as its page is answered: of it, only its summary (the
    answer's data, which DRF's response holds in a cycle of its own) is left to the cyclic
    garbage collector. Prefetched seats referred to their games and back, so every listed game
    (its row, its seats, their values: about 50 objects) waited for the collector, whose pauses
    in a web process grew with the pages it listed (docs/performance.md)."""
    ada, bob = players[:2]
    for seed in range(12):
        start_table([ada, bob], seed=seed)

    def garbage_after(size: int) -> tuple[int, list[Any]]:
        ok(ada.client.get(GAMES, {"page_size": size}))  # warm: whatever a first call caches
        gc.collect()
        gc.disable()
        try:
            results = ok(ada.client.get(GAMES, {"page_size": size}))["results"]
            return gc.collect(), results
        finally:
            gc.enable()

    (one, _), (twelve, results) = garbage_after(1), garbage_after(12)
    assert len(results) == 12
    # The request's own cycles (the test client's, DRF's) are the same for both pages; each
    # further game adds at most its summary's containers, which the response holds.
    assert twelve - one <= 11 * containers(results[0]), (one, twelve, containers(results[0]))


def containers(value: Any) -> int:
    """The dicts and lists a JSON value is made of."""
    if isinstance(value, dict):
        return 1 + sum(containers(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(containers(v) for v in value)
    return 0


def test_the_lobbys_count_reads_the_index_of_waiting_games_however_it_is_planned(
    players: list[Player],
) -> None:
    """The lobby's count is read prepared; once PostgreSQL plans such a statement generically
    (after five runs), a bound status could not use the partial indexes of waiting games
    (``game_lobby_waiting`` makes the count an index-only scan) and counted the lobby through
    the wide game rows, a read that grew with the games stored (docs/performance.md, "The
    lobby's count, back on its index"). Checked on the generic plan, as on a big table (no
    sequential scan)."""
    create_game(players[0], max_players=3)
    lobby = listing(
        "default", player_id=players[1].id, staff=False, status="waiting", mine=False, my_turn=False
    )
    sql, params = lobby.count_statement
    numbers = itertools.count(1)
    numbered = re.sub("%s", lambda _: f"${next(numbers)}", sql)
    marks = ", ".join(["%s"] * len(params))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"PREPARE lobby_count AS {numbered}")
        cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE lobby_count({marks})", params)
        (plan,) = cursor.fetchone()[0]
        cursor.execute("DEALLOCATE lobby_count")

    def nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
        yield node
        for child in node.get("Plans", []):
            yield from nodes(child)

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'games_game' AND indexdef LIKE %s",
            ["%WHERE ((status)::text = 'waiting'::text)"],
        )
        of_waiting_games = {name for (name,) in cursor.fetchall()}
    assert "game_lobby_waiting" in of_waiting_games
    read = {node.get("Index Name") for node in nodes(plan["Plan"])}
    assert read & of_waiting_games, plan
