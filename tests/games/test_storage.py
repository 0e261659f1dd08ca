"""Storage: the append-only logs (PostgreSQL triggers: a game's and a tournament's), unique seqs,
rebuildable projections."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from games import engine, eventstore
from games.engine.bots import choose
from games.engine.snapshot import state_from_data
from games.models import Event, Game, Hand, Seat, Tournament, TournamentEntry
from games.projections import Changes
from tests.support.players import Player
from tests.support.table import Table, db_log, ok, play_to_end, start_table
from tests.support.tournaments import create as create_tournament
from tests.support.tournaments import url as tournament_url
from unoservice.errors import DomainError

pytestmark = pytest.mark.django_db


def refused_sql(sql: str, params: list[Any]) -> str:
    with pytest.raises(DatabaseError) as info, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
    return str(info.value)


@pytest.fixture
def table(players: list[Player]) -> Table:
    table = start_table(players[:2], seed=1234)
    table.act(table.actor(), "draw")
    return table


def log_rows(game_id: str) -> list[tuple[Any, ...]]:
    return list(
        Event.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "type", "seat", "data", "created_at")
    )


def test_the_log_refuses_update_and_delete(table: Table) -> None:
    before = log_rows(table.id)
    assert len(before) >= 5

    message = refused_sql(
        "UPDATE games_event SET type = 'cheat' WHERE game_id = %s AND seq = 1", [table.id]
    )
    assert "append-only" in message and "UPDATE" in message
    message = refused_sql("DELETE FROM games_event WHERE game_id = %s", [table.id])
    assert "append-only" in message and "DELETE" in message
    refused_sql("UPDATE games_event SET data = '{}'::jsonb WHERE game_id = %s", [table.id])

    # The ORM goes through the same SQL.
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(game_id=table.id).update(seat=None)
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(game_id=table.id, seq=2).delete()

    assert log_rows(table.id) == before


def test_the_trigger_is_installed() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgrelid = 'games_event'::regclass "
            "AND NOT tgisinternal"
        )
        assert cursor.fetchall() == [("O",)]


def test_the_tournament_log_refuses_update_and_delete(players: list[Player]) -> None:
    """A tournament replays from its log (migration 0014's trigger): no entry changes or goes."""
    host, ada, *_ = players
    tournament = create_tournament(host)["id"]
    ok(ada.client.post(tournament_url(tournament, "join")))
    entries = TournamentEntry.objects.filter(tournament_id=tournament).order_by("seq")
    before = list(entries.values_list("seq", "type", "data", "at"))
    assert [row[1] for row in before] == ["tournament_created", "player_joined"]

    message = refused_sql(
        "UPDATE games_tournamententry SET type = 'player_withdrew' "
        "WHERE tournament_id = %s AND seq = 2",
        [tournament],
    )
    assert "append-only" in message and "UPDATE" in message
    message = refused_sql(
        "DELETE FROM games_tournamententry WHERE tournament_id = %s", [tournament]
    )
    assert "append-only" in message and "DELETE" in message
    # The ORM goes through the same SQL, and so does deleting the tournament (a cascade).
    with pytest.raises(DatabaseError), transaction.atomic():
        entries.update(data={})
    with pytest.raises(DatabaseError), transaction.atomic():
        entries.filter(seq=2).delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        Tournament.objects.filter(pk=tournament).delete()

    assert list(entries.values_list("seq", "type", "data", "at")) == before
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgrelid = 'games_tournamententry'::regclass "
            "AND tgname = 'games_tournamententry_append_only'"
        )
        assert cursor.fetchall() == [("O",)]


def test_seqs_are_unique(table: Table) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game_id=table.id, seq=1, type="passed", seat=0, data={})
    # Appending the next seq is what the service does; it works.
    version = Game.objects.get(pk=table.id).version
    assert list(Event.objects.filter(game_id=table.id).values_list("seq", flat=True)) == list(
        range(1, version + 1)
    )


def snapshot(game_id: str) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    return {
        "game": (game.version, game.state, game.status, game.current_seat, game.winner_seat),
        "seats": list(
            Seat.objects.filter(game_id=game_id)
            .order_by("number")
            .values_list("number", "player_id", "status", "score")
        ),
        "hands": list(
            Hand.objects.filter(game_id=game_id).order_by("seat").values_list("seat", "cards")
        ),
    }


def rebuild(*game_ids: str) -> str:
    out = io.StringIO()
    call_command("rebuild_projections", *game_ids, stdout=out)
    return out.getvalue()


def test_rebuild_projections_matches_the_live_ones_and_repairs_them(
    players: list[Player], make_player: Any
) -> None:
    rng = random.Random(4)
    tables = [
        start_table(players[:2], seed=1, target_score=1),
        start_table(players[1:4], seed=2, rules={"seven_zero": True, "stacking": True}),
        start_table(players[:3], seed=3, rules={"jump_in": True}),
    ]
    play_to_end(tables[0], rng)
    for table in tables[1:]:
        for _ in range(40):
            actor = table.actor()
            table.act(actor, **choose(rng, table.view(actor), prefer_play=0.95))
    ok_resign = tables[2].client(2).post(tables[2].url("resign"))
    assert ok_resign.status_code == 200
    waiting = make_player("lonely")
    waiting.client.post("/api/v1/games/", {}, format="json")
    live = {t.id: snapshot(t.id) for t in tables}

    output = rebuild()

    assert "3 game(s) rebuilt, 0 differed" in output
    assert {t.id: snapshot(t.id) for t in tables} == live

    # Tamper with every kind of projection; the rebuild puts the log's truth back.
    victim = tables[1].id
    Hand.objects.filter(game_id=victim, seat=0).update(cards=["wild", "wild", "wild"])
    Seat.objects.filter(game_id=victim, number=1).update(score=999, status="forfeited")
    Game.objects.filter(pk=victim).update(state=None, current_seat=7, status="waiting")
    Hand.objects.filter(game_id=tables[0].id, seat=1).delete()

    output = rebuild()

    assert f"rebuilt {victim}" in output and f"rebuilt {tables[0].id}" in output
    assert "3 game(s) rebuilt, 2 differed" in output
    assert {t.id: snapshot(t.id) for t in tables} == live

    # One game by id.
    Hand.objects.filter(game_id=victim, seat=2).update(cards=[])
    assert "1 game(s) rebuilt, 1 differed" in rebuild(victim)
    assert snapshot(victim) == live[victim]


def test_a_locked_game_reads_as_the_orm_reads_it(table: Table) -> None:

    with transaction.atomic():
        locked = eventstore.lock_game(table.id)
    fetched = Game.objects.get(pk=table.id)
    for field in Game._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(fetched, field.attname), field.name
    assert locked.state is not None and locked.state["players"] == 2
    with pytest.raises(DomainError) as missing, transaction.atomic():
        eventstore.lock_game("00000000-0000-0000-0000-000000000000")
    assert missing.value.code == "not_found"


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_lock_outside_a_transaction_is_refused(table: Table) -> None:

    with pytest.raises(transaction.TransactionManagementError):
        eventstore.lock_game(table.id)


def test_writes_run_together_and_set_only_their_fields(
    table: Table, django_assert_num_queries: Any
) -> None:
    before = Game.objects.get(pk=table.id)
    changed = Game.objects.get(pk=table.id)
    changed.current_seat = 7
    changed.max_players = 9  # not a column that appending events changes
    changes = Changes(hands={1: ("red-1",)})
    with django_assert_num_queries(1):  # one round trip on PostgreSQL
        eventstore.save(changed, changed.version + 1, [], changes, timezone.now())
    after = Game.objects.get(pk=table.id)
    assert after.current_seat == 7 and after.max_players == before.max_players
    assert after.updated_at > before.updated_at
    assert (after.state, after.version) == (before.state, before.version)
    assert Hand.objects.get(game_id=table.id, seat=1).cards == ["red-1"]
    assert len(Hand.objects.get(game_id=table.id, seat=0).cards) > 1


def test_the_snapshot_is_json_text_that_reads_back_as_the_state(table: Table) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'games_game' AND column_name = 'state'"
        )
        assert cursor.fetchone() == ("text",)
        cursor.execute("SELECT state FROM games_game WHERE id = %s", [table.id])
        (stored,) = cursor.fetchone()
    game = Game.objects.get(pk=table.id)
    assert isinstance(stored, str) and json.loads(stored) == game.state
    assert state_from_data(game.state) == engine.replay(db_log(table.id))
    assert Game.objects.filter(pk=table.id, state__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_an_action_whose_database_connection_is_cut_answers_503_and_stores_nothing(
    players: list[Player],
) -> None:
    """The lock and the writes run prepared, past Django's cursors (``unoservice.prepared``):
    a database gone under them is still Django's error, so the answer is the contract's 503
    rather than a 500, and the next request connects again."""
    import psycopg
    from rest_framework.test import APIClient

    table = start_table(players[:2], seed=1234)
    actor = table.actor()
    client = APIClient()
    client.force_authenticate(players[actor].user)  # no token query: the lock is the first
    before = table.snapshot()
    connection.ensure_connection()
    backend = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [backend])

    cut = client.post(table.url("actions"), {"action": "draw"}, format="json")

    assert cut.status_code == 503, cut.content
    assert cut.json()["code"] == "unavailable"
    connection.close_if_unusable_or_obsolete()  # what the end of a served request does
    assert table.snapshot() == before
    table.act(actor, "draw")
    assert table.snapshot()[0] > before[0]
