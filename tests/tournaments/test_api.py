"""Tournaments through the API: creating, listing, joining and withdrawing, and every bad input
refused with its code, changing nothing."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Tournament, TournamentEntry
from notifications.models import Notification
from players.models import Bot
from service import bots
from tests.support.players import MakePlayer, Player, client_for
from tests.support.table import game_url, ok, refused
from tests.support.tournaments import (
    QUICK,
    TOURNAMENTS,
    create,
    join_all,
    log_of,
    play_game,
    start_now,
    url,
)

pytestmark = pytest.mark.django_db


def later(**delta: Any) -> str:
    return (timezone.now() + timedelta(**(delta or {"hours": 1}))).isoformat()


def test_a_host_creates_a_swiss_tournament_and_players_join(players: list[Player]) -> None:
    host, ada, bob, _ = players
    body = create(host, name="Friday Swiss", rounds=3, table_size=4)
    assert body["status"] == "upcoming"
    assert body["format"] == "swiss" and body["table_size"] == 4 and body["round_count"] == 3
    assert body["settings"]["target_score"] == 1 and "max_players" not in body["settings"]
    assert body["players"] == [] and body["rounds"] == [] and body["standings"] == []

    joined = ok(ada.client.post(url(body["id"], "join")))
    assert joined["players"] == [
        {"id": ada.id, "username": ada.user.username, "withdrawn": False, "bot_account": False}
    ]
    assert joined["you"] == {"withdrawn": False, "table": None}
    ok(bob.client.post(url(body["id"], "join")))

    detail = ok(host.client.get(url(body["id"])))
    assert [p["id"] for p in detail["players"]] == [ada.id, bob.id]
    assert [s["player"] for s in detail["standings"]] == sorted([ada.id, bob.id])
    assert all(s["points"] == 0 and s["games"] == 0 for s in detail["standings"])
    assert detail["you"] is None  # the host does not play

    listed = ok(host.client.get(TOURNAMENTS))
    assert listed["count"] == 1 and listed["results"][0]["player_count"] == 2
    assert ok(ada.client.get(TOURNAMENTS, {"mine": "true"}))["count"] == 1
    assert ok(host.client.get(TOURNAMENTS, {"mine": "true"}))["count"] == 0
    assert [e["type"] for e in log_of(body["id"])] == [
        "tournament_created",
        "player_joined",
        "player_joined",
    ]


def test_withdrawing_and_withdrawing_twice(players: list[Player]) -> None:
    host, ada, *_ = players
    tournament = create(host)
    ok(ada.client.post(url(tournament["id"], "join")))
    refused(ada.client.post(url(tournament["id"], "join")), 409, "tournament_already_joined")
    left = ok(ada.client.post(url(tournament["id"], "withdraw")))
    assert left["players"][0]["withdrawn"] is True and left["player_count"] == 0
    before = log_of(tournament["id"])
    refused(ada.client.post(url(tournament["id"], "withdraw")), 409, "tournament_not_joined")
    refused(host.client.post(url(tournament["id"], "withdraw")), 409, "tournament_not_joined")
    assert log_of(tournament["id"]) == before
    # Before the start, a player who withdrew may come back.
    back = ok(ada.client.post(url(tournament["id"], "join")))
    assert back["players"][0]["withdrawn"] is False


def test_a_full_tournament_refuses_new_players_but_takes_back_one_who_withdrew(
    players: list[Player], settings: Any
) -> None:
    settings.UNO_TOURNAMENT_MAX_PLAYERS = 2
    host, ada, bob, cy, *_ = players
    tournament = create(host)
    for player in (ada, bob):
        ok(player.client.post(url(tournament["id"], "join")))
    before = log_of(tournament["id"])
    full = refused(cy.client.post(url(tournament["id"], "join")), 409, "tournament_full")
    assert "at most 2 players" in full["detail"]
    assert log_of(tournament["id"]) == before
    assert ok(cy.client.get(url(tournament["id"])))["player_count"] == 2
    # Who withdrew keeps their place: their return is taken, a newcomer's is not.
    ok(ada.client.post(url(tournament["id"], "withdraw")))
    refused(cy.client.post(url(tournament["id"], "join")), 409, "tournament_full")
    assert ok(ada.client.post(url(tournament["id"], "join")))["player_count"] == 2


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        ({"table_size": 1}, 400, "invalid_table_size"),
        ({"table_size": 11}, 400, "invalid_table_size"),
        ({"table_size": "4"}, 400, "invalid"),
        ({"starts_at": "2020-01-01T00:00:00Z"}, 400, "start_in_past"),
        ({"starts_at": "not a time"}, 400, "invalid"),
        # Without its zone: it was taken as UTC (a client's local time, silently moved).
        ({"starts_at": "2099-01-01T10:00:00"}, 400, "invalid"),
        ({"starts_at": 4102444800}, 400, "invalid"),
        # The form of a time but none: they were 500s.
        ({"starts_at": "2099-02-30T12:00:00Z"}, 400, "invalid"),
        ({"starts_at": "2099-06-01T12:00:00+25:00"}, 400, "invalid"),
        ({"format": "knockout"}, 400, "invalid"),
        ({"rounds": 0}, 400, "invalid"),
        ({"rounds": None}, 400, "invalid"),
        ({"format": "arena", "rounds": None}, 400, "invalid"),  # an arena needs minutes
        ({"format": "arena", "minutes": 30}, 400, "invalid"),  # and has no rounds
        ({"minutes": 30}, 400, "invalid"),  # a Swiss has no minutes
        ({"name": ""}, 400, "invalid"),
        ({"settings": {"max_players": 3}}, 400, "invalid"),  # the table size says it
        ({"settings": {"seed": 7}}, 400, "invalid"),
        ({"settings": {"rules": {"no_such_rule": True}}}, 400, "invalid"),
        ({"settings": {"turn_timeout": 0}}, 400, "invalid"),
        ({"settings": {"teams": 2}, "table_size": 3}, 400, "invalid_rules"),  # as /games/ says
        ({"colour": "red"}, 400, "invalid"),
        # A bot playing on for a seat that resigned won the tournament for its player.
        ({"settings": {**QUICK, "bot_takeover": True}}, 400, "invalid"),
    ],
)
def test_bad_tournaments_are_refused_and_change_nothing(
    players: list[Player], fields: dict[str, Any], status: int, code: str
) -> None:
    body = {
        "name": "Bad",
        "format": "swiss",
        "table_size": 4,
        "rounds": 2,
        "settings": dict(QUICK),
        "starts_at": later(),
    }
    body.update(fields)
    body = {k: v for k, v in body.items() if v is not None}
    answer = refused(players[0].client.post(TOURNAMENTS, body, format="json"), status, code)
    if code == "invalid":  # the field refused, as every 400 invalid names it (docs/api.md)
        assert answer.get("fields"), answer
    assert not Tournament.objects.exists() and not TournamentEntry.objects.exists()


def test_the_same_settings_refused_by_post_games_are_refused_here(players: list[Player]) -> None:
    """One validation: a table's settings are checked as a game's creation checks them."""
    settings = {"teams": 2, "rules": {"elimination": True}}
    game = players[0].client.post("/api/v1/games/", {"max_players": 4, **settings}, format="json")
    answer = players[0].client.post(
        TOURNAMENTS,
        {"name": "x", "format": "swiss", "rounds": 1, "settings": settings, "starts_at": later()},
        format="json",
    )
    assert game.status_code == answer.status_code == 400
    assert game.json()["code"] == answer.json()["code"]


def test_unknown_tournaments_are_not_found(players: list[Player]) -> None:
    for path in (url("nope"), url("00000000-0000-0000-0000-000000000000", "join")):
        answer = players[0].client.post(path) if "join" in path else players[0].client.get(path)
        refused(answer, 404, "not_found")


def test_joining_a_started_swiss_is_refused(make_player: MakePlayer) -> None:
    host, *people = (make_player(f"p{i}") for i in range(4))
    tournament = create(host, table_size=2, rounds=1)
    join_all(tournament["id"], people[:2])
    start_now(tournament["id"])
    assert ok(host.client.get(url(tournament["id"])))["status"] == "running"
    before = log_of(tournament["id"])
    refused(people[2].client.post(url(tournament["id"], "join")), 409, "tournament_started")
    assert log_of(tournament["id"]) == before


def test_entrant_allowed_keeps_built_in_bots_out(players: list[Player]) -> None:
    tournament = create(players[0], bots_allowed=True)
    bot = bots.bot_user("basic", set())
    assert Bot.objects.filter(user=bot).exists()
    bot.is_active = True  # as if it could sign in at all
    bot.save()
    refused(client_for(bot).post(url(tournament["id"], "join")), 403, "bots_not_allowed")


def test_a_tournament_without_enough_players_ends_at_its_start(players: list[Player]) -> None:
    host, ada, *_ = players
    tournament = create(host)
    ok(ada.client.post(url(tournament["id"], "join")))
    start_now(tournament["id"])
    detail = ok(host.client.get(url(tournament["id"])))
    assert detail["status"] == "finished" and detail["rounds"] == []
    assert log_of(tournament["id"])[-1]["data"]["reason"] == "not_enough_players"
    refused(ada.client.post(url(tournament["id"], "withdraw")), 409, "tournament_finished")
    # Its one entrant is told it did not take place, not only that they came first of one.
    told = ok(ada.client.get("/api/v1/notifications/"))["results"]
    assert [n["data"]["reason"] for n in told if n["kind"] == "tournament_finished"] == [
        "not_enough_players"
    ]


@pytest.mark.django_db(transaction=True)  # the steps follow the games' commits
def test_a_player_who_withdraws_finishes_their_game_and_gets_no_new_table(
    make_player: MakePlayer,
) -> None:
    host, *people = (make_player(f"w{i}") for i in range(5))
    by_id = {p.id: p for p in people}
    tournament = create(host, table_size=2, rounds=2)
    tid = tournament["id"]
    join_all(tid, people)
    start_now(tid)
    first = ok(host.client.get(url(tid)))["rounds"][0]["tables"]
    leaver = by_id[first[0]["seats"][0]]
    ok(leaver.client.post(url(tid, "withdraw")))
    game = first[0]["game"]
    assert ok(leaver.client.get(game_url(game)))["status"] == "active"  # it goes on
    rng = random.Random(3)
    for table in first:
        play_game(table["game"], {p: by_id[p] for p in table["seats"]}, rng)
    detail = ok(host.client.get(url(tid)))
    second = detail["rounds"][1]["tables"]
    seated = [p for t in second for n, p in enumerate(t["seats"]) if n not in t["bots"]]
    assert leaver.id not in seated and sorted(seated) == sorted(set(by_id) - {leaver.id})
    assert sum(len(t["bots"]) for t in second) == 1  # three players at tables of 2: one bot
    row = next(r for r in detail["standings"] if r["player"] == leaver.id)
    assert row["games"] == 1  # the game they finished counts
    assert ok(leaver.client.get(url(tid)))["you"] == {"withdrawn": True, "table": None}
    # At the end, those still in are told their place; the one who left is told nothing (an
    # account deleted meanwhile, withdrawn by its deletion, got a notification of its place).
    for table in second:
        play_game(table["game"], {p: by_id[p] for p in table["seats"] if p in by_id}, rng)
    assert ok(host.client.get(url(tid)))["status"] == "finished"
    told = Notification.objects.filter(kind="tournament_finished")
    assert sorted(told.values_list("player_id", flat=True)) == sorted(set(by_id) - {leaver.id})


@pytest.mark.django_db(transaction=True)  # the steps follow the commits
def test_an_arena_takes_players_until_its_end(make_player: MakePlayer) -> None:
    host, *people = (make_player(f"a{i}") for i in range(6))
    tournament = create(host, format="arena", rounds=None, minutes=30, table_size=2)
    tid = tournament["id"]
    join_all(tid, people[:3])
    start_now(tid)
    detail = ok(host.client.get(url(tid)))
    (first,) = detail["rounds"][0]["tables"]  # two seated, one waits
    waiting = next(p.id for p in people[:3] if p.id not in first["seats"])
    # A newcomer while it runs sits at once with the one waiting.
    late = ok(people[3].client.post(url(tid, "join")))
    tables = late["rounds"][0]["tables"]
    assert len(tables) == 2 and sorted(tables[1]["seats"]) == sorted([waiting, people[3].id])
    assert late["you"]["table"] == tables[1]["game"]
    # Its time up (moved, not waited for), nobody joins and no table starts.
    Tournament.objects.filter(pk=tid).update(starts_at=timezone.now() - timedelta(minutes=31))
    refused(people[4].client.post(url(tid, "join")), 409, "tournament_finished")
    assert len(ok(host.client.get(url(tid)))["rounds"][0]["tables"]) == 2
