"""An action costs a small, constant number of SQL queries, however long the log already is."""

from __future__ import annotations

import random
import select
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.db.models import Max
from psycopg.adapt import Transformer

from games import engine
from games.engine.bots import choose
from games.models import Event
from service import play
from tests.support.players import Player
from tests.support.table import Table, db_state, start_table

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12


def to_a_plain_turn(table: Table, rng: random.Random, users: list[Player]) -> int:
    """Play (through the services, quickly) until the actor faces no pending decision."""
    while True:
        state = db_state(table.id)
        assert state.status == "active"
        if state.pending is None:
            return state.actor
        view = engine.view(state, state.actor)
        view["settings"] = {"rules": {}}
        act(table, users, state.actor, choose(rng, view))


def act(table: Table, users: list[Player], seat: int, action: dict) -> None:
    play.game_act(player=users[seat].user, game_id=table.id, action=action)


def test_an_action_costs_the_same_queries_early_and_late(
    players: list[Player], django_assert_max_num_queries: object
) -> None:
    users = players[:2]
    rng = random.Random(6)
    table = start_table(users, seed=17, target_score=100_000)
    actor = to_a_plain_turn(table, rng, users)

    with django_assert_max_num_queries(MAX_QUERIES) as early:  # type: ignore[operator]
        table.act(actor, "draw")
    with django_assert_max_num_queries(MAX_QUERIES) as early_view:  # type: ignore[operator]
        table.view(1 - actor)

    # Hundreds of events later (played through the services: the same path without HTTP).
    while db_state(table.id).status == "active" and table_version(table) < 400:
        state = db_state(table.id)
        view = engine.view(state, state.actor)
        view["settings"] = {"rules": {}}
        act(table, users, state.actor, choose(rng, view, prefer_play=0.9))
    assert table_version(table) >= 400
    actor = to_a_plain_turn(table, rng, users)

    with django_assert_max_num_queries(MAX_QUERIES) as late:  # type: ignore[operator]
        table.act(actor, "draw")
    with django_assert_max_num_queries(MAX_QUERIES) as late_view:  # type: ignore[operator]
        table.view(1 - actor)

    assert len(late.captured_queries) == len(early.captured_queries)
    assert len(late_view.captured_queries) == len(early_view.captured_queries)
    # No query reads the whole log.
    for query in late.captured_queries:
        assert not ('FROM "games_event"' in query["sql"] and "SELECT" in query["sql"]), query


def table_version(table: Table) -> int:
    return Event.objects.filter(game_id=table.id).aggregate(v=Max("seq"))["v"] or 0


def test_an_action_locks_once_and_sends_its_writes_in_one_message(
    players: list[Player], django_assert_num_queries: object
) -> None:
    users = players[:2]
    table = start_table(users, seed=17)
    actor = to_a_plain_turn(table, random.Random(3), users)
    with django_assert_num_queries(4) as captured:  # type: ignore[operator]
        act(table, users, actor, {"action": "draw"})
    # Inside the test's own transaction, the action's transaction is a savepoint.
    sqls = [query["sql"] for query in captured.captured_queries]
    assert sqls[0].startswith("SAVEPOINT") and sqls[3].startswith("RELEASE SAVEPOINT"), sqls
    assert sqls[1].startswith("SELECT") and sqls[1].endswith("FOR UPDATE"), sqls[1]
    writes = sqls[2]  # one statement: the events, the game, the hand and the notifications
    assert writes.startswith('WITH w0 AS (INSERT INTO "games_event"'), writes
    assert ";" not in writes, writes
    assert 'UPDATE "games_game"' in writes and 'UPDATE "games_hand"' in writes, writes
    assert 'INSERT INTO "notifications_notification"' in writes, writes


def plans_of(fragment: str) -> list[tuple[int, int]]:
    """(generic plans, custom plans) of this connection's prepared statements holding
    ``fragment``."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE position(%s in statement) > 0 ORDER BY prepare_time",
            [fragment],
        )
        return cursor.fetchall()


def test_an_actions_lock_and_writes_are_prepared_and_planned_once(players: list[Player]) -> None:
    """Parsed and planned anew, the statements of an action were about 40% of PostgreSQL's CPU
    under the service benchmark (docs/performance.md, "A sixth pass")."""
    connection.ensure_connection()
    connection.connection.prepare_threshold = None  # as Django connects
    users = players[:2]
    table = start_table(users, seed=17, target_score=100_000)
    rng = random.Random(4)
    for _ in range(3):
        actor = to_a_plain_turn(table, rng, users)
        before = table_version(table)
        table.act(actor, "draw")
        assert table_version(table) > before

    (lock,) = plans_of("FOR UPDATE")
    assert lock[1] == 0 and lock[0] >= 3
    # One statement per shape (events, hands and seats go as arrays, whatever their number):
    # three draws, with or without a notification, are at most two shapes, each planned once.
    writes = plans_of('UPDATE "games_game" SET "version"')
    assert 1 <= len(writes) <= 2, writes
    assert all(custom == 0 for _, custom in writes) and sum(g for g, _ in writes) >= 3, writes


def answer_of(pgconn: Any) -> list[Any]:
    """The results of the statement sent last on ``pgconn`` (nonblocking, as psycopg's)."""
    while pgconn.flush():
        select.select([], [pgconn.socket], [], 5)
    results: list[Any] = []
    while True:
        pgconn.consume_input()
        if pgconn.is_busy():
            select.select([pgconn.socket], [], [], 5)
            continue
        result = pgconn.get_result()
        if result is None:
            return results
        results.append(result)


@pytest.mark.django_db(transaction=True)  # the listening connection sees what committed
def test_the_streams_read_of_the_news_is_prepared_and_planned_once(players: list[Player]) -> None:
    """The hub's read of the news runs as one statement prepared on its listening connection,
    with one plan for any values: parsed and planned anew for every read, it cost PostgreSQL
    about 370 us a read under load against about 140 us (docs/performance.md)."""
    from streams import hub

    table = start_table(players[:2], seed=17)
    with psycopg.connect(**hub._listen_params(), autocommit=True) as listening:
        for statement in hub.news_setup():
            listening.execute(statement)
        transformer = Transformer(listening)
        for after in range(3):
            hub.send_news_read(listening.pgconn, {table.id: after})
            (result,) = answer_of(listening.pgconn)
            news = hub.news_of(transformer, result)
            assert [row.seq for row in news[table.id].rows] == list(
                range(after + 1, table_version(table) + 1)
            )
        plans = listening.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = %s",
            [hub.NEWS_STATEMENT],
        ).fetchall()
    assert plans == [(3, 0)]
