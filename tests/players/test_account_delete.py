"""Deleting one's account (``POST /api/v1/players/me/delete/``, ``service.accounts``): the
player's games are left or resigned, their challenges and tournaments closed, what is theirs
deleted and the account renamed ``deleted-…`` without a password; its profile is not found, it is
off the leaderboard, and the other players' games go on. A wrong password and no token change
nothing; a bot account is deleted with its password as any account is."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.models import (
    Challenge,
    ChallengeStatus,
    ChatMessage,
    Entrant,
    Game,
    GameStatus,
    Seat,
    SeatStatus,
)
from notifications.models import Notification, PushChoice, PushSubscription, Webhook
from players.locks import lock_player
from players.models import Block, DeletedAccount, Rating, Session
from tests.support.locks import WAIT, await_waiting
from tests.support.players import PASSWORD, MakeUser, Player, client_with, player_for
from tests.support.table import create_game, game_url, ok, refused, start_table
from tests.support.tournaments import create as create_tournament
from tests.support.tournaments import url as tournament_url

pytestmark = pytest.mark.django_db

DELETE = "/api/v1/players/me/delete/"
ME = "/api/v1/players/me/"


@pytest.fixture
def people(make_player: MakeUser) -> list[Player]:
    return [player_for(make_player(name)) for name in ("alice", "bob", "cy")]


def named(note: Notification, username: str) -> bool:
    """The notification's data names ``username`` (a player's ``{"id", "username"}``)."""
    return f'"username": {json.dumps(username)}' in json.dumps(note.data)


def delete(player: Player, password: str = PASSWORD) -> Any:
    return player.client.post(DELETE, {"password": password}, format="json")


def test_deleting_the_account_leaves_every_game_and_forgets_the_person(
    people: list[Player],
) -> None:
    alice, bob, cy = people
    duel = start_table([bob, alice], turn_timeout=86400)  # 2 players: ends when she resigns
    three = start_table([alice, bob, cy], turn_timeout=86400)  # goes on without her
    ok(alice.client.post(three.url("chat"), {"text": "hello"}, format="json"), 201)
    hers = create_game(alice, max_players=3)  # waiting, hers: abandoned
    bobs = create_game(bob, max_players=3)  # waiting, bob's: she leaves it
    ok(alice.client.post(game_url(bobs["id"], "join")))
    made = ok(alice.client.post("/api/v1/challenges/", {"to": "bob"}, format="json"), 201)
    got = ok(cy.client.post("/api/v1/challenges/", {"to": "alice"}, format="json"), 201)
    cup = create_tournament(bob)
    ok(alice.client.post(tournament_url(cup["id"], "join")))
    ok(alice.client.post(f"/api/v1/players/{cy.id}/block/"), 201)
    Webhook.objects.create(player=alice.user, url="https://example.com/hook", secret="whsec_x")
    PushSubscription.objects.create(
        player=alice.user, endpoint="https://push.example.com/1", p256dh="k", auth="a"
    )
    ok(alice.client.put("/api/v1/push/kinds/", {"kinds": ["challenge"]}, format="json"))
    assert Notification.objects.filter(player=alice.user).exists()  # challenges, turns
    naming_her = [
        n.pk for n in Notification.objects.exclude(player=alice.user) if named(n, "alice")
    ]
    # a game's others, her seat taken at bob's table, her challenge to bob
    assert {Notification.objects.get(pk=pk).kind for pk in naming_her} >= {
        "game_started",
        "player_joined",
        "challenge",
    }

    answer = delete(alice)

    assert answer.status_code == 204, answer.content
    gone = User.objects.get(pk=alice.id)
    assert gone.username.startswith("deleted-") and not gone.is_active
    assert not gone.has_usable_password() and gone.email == ""
    assert DeletedAccount.objects.filter(user=gone).exists()
    # Her games: the duel is bob's win; the three-player game goes on without her seat.
    assert ok(bob.client.get(duel.url()))["status"] == "finished"
    assert Game.objects.get(pk=duel.id).winner_seat == 0
    view = ok(bob.client.get(three.url()))
    assert view["status"] == "active"
    assert Seat.objects.get(game_id=three.id, player=gone).status == SeatStatus.FORFEITED
    names = {s["seat"]: s["player"]["username"] for s in view["seats"]}
    assert names[0] == gone.username  # the roster names her seat so
    # The others' notifications name her so too (their inbox, player stream and export kept
    # her own name).
    for note in Notification.objects.filter(pk__in=naming_her):
        assert not named(note, "alice") and named(note, gone.username), note.data
    for page in (bob.client.get("/api/v1/notifications/"), cy.client.get("/api/v1/notifications/")):
        assert '"alice"' not in page.content.decode()
    assert Game.objects.get(pk=hers["id"]).status == GameStatus.ABANDONED
    assert not Seat.objects.filter(game_id=bobs["id"], player=gone).exists()
    assert Game.objects.get(pk=bobs["id"]).status == GameStatus.WAITING
    # Her challenges and tournaments.
    assert Challenge.objects.get(pk=made["id"]).status == ChallengeStatus.CANCELLED
    assert Challenge.objects.get(pk=got["id"]).status == ChallengeStatus.DECLINED
    assert Entrant.objects.get(tournament_id=cup["id"], player=gone).withdrawn_at is not None
    # What was hers.
    for rows in (
        Session.objects.filter(user=gone),
        Webhook.objects.filter(player=gone),
        PushSubscription.objects.filter(player=gone),
        PushChoice.objects.filter(player=gone),
        Notification.objects.filter(player=gone),
        Block.objects.filter(blocker=gone),
        ChatMessage.objects.filter(author=gone),
    ):
        assert not rows.exists(), rows.model
    # Her token, her password and her name open nothing; the others see no profile of her.
    refused(alice.client.get(ME), 401, "not_authenticated")
    signing_in = {"username": "alice", "password": PASSWORD}
    refused(
        APIClient().post("/api/v1/auth/token/", signing_in, format="json"),
        400,
        "invalid_credentials",
    )
    refused(bob.client.get(f"/api/v1/players/{alice.id}/"), 404, "not_found")
    assert Rating.objects.filter(user=gone).exists()  # rated by the duel, yet not listed
    board = ok(bob.client.get("/api/v1/leaderboard/"))["results"]
    assert gone.pk not in {row["player"]["id"] for row in board}
    assert bob.id in {row["player"]["id"] for row in board}
    # Her name is free to take again; the deleted name is nobody's to choose.
    ok(APIClient().post("/api/v1/players/", signing_in, format="json"), 201)
    taken = {"username": gone.username, "password": PASSWORD}
    refused(APIClient().post("/api/v1/players/", taken, format="json"), 400, "username_reserved")


def test_a_wrong_password_changes_nothing(people: list[Player]) -> None:
    alice, bob, _ = people
    table = start_table([alice, bob], turn_timeout=86400)

    refused(delete(alice, "not my password"), 400, "invalid_credentials")

    assert ok(alice.client.get(ME))["username"] == "alice"
    assert ok(bob.client.get(table.url()))["status"] == "active"
    assert not DeletedAccount.objects.exists()


def test_a_guest_deletes_without_a_password(api: APIClient) -> None:
    guest = api.post("/api/v1/players/guest/").json()
    client = client_with(guest["access"])
    game = ok(client.post("/api/v1/games/", {"max_players": 3}, format="json"), 201)

    answer = client.post(DELETE, {}, format="json")

    assert answer.status_code == 204, answer.content
    assert Game.objects.get(pk=game["id"]).status == GameStatus.ABANDONED
    assert User.objects.get(pk=guest["id"]).username.startswith("deleted-")
    refused(client.get(ME), 401, "not_authenticated")


def test_a_bot_account_is_deleted_with_its_password(people: list[Player]) -> None:
    """Its tokens are scoped to play, but the password, not the token, deletes it."""
    alice = people[0]
    ok(alice.client.post("/api/v1/players/me/bot-account/"))

    refused(delete(alice, "not my password"), 400, "invalid_credentials")
    assert ok(alice.client.get(ME))["username"] == "alice"
    answer = delete(alice)

    assert answer.status_code == 204, answer.content
    assert User.objects.get(pk=alice.id).username.startswith("deleted-")
    refused(alice.client.get(ME), 401, "not_authenticated")


def test_a_deleted_account_is_renamed_in_a_waiting_game_it_had_left(people: list[Player]) -> None:
    """A waiting game left before the deletion has no seat of the account: the host's
    ``player_joined`` (whom the host saw come and go) kept the person's own name."""
    alice, bob, _ = people
    his = create_game(bob, max_players=3)
    ok(alice.client.post(game_url(his["id"], "join")))
    ok(alice.client.post(game_url(his["id"], "leave")))

    assert delete(alice).status_code == 204

    gone = User.objects.get(pk=alice.id).username
    inbox = ok(bob.client.get("/api/v1/notifications/"))["results"]
    assert "alice" not in json.dumps(inbox)
    assert [n["data"]["player"] for n in inbox if n["kind"] == "player_joined"] == [
        {"id": alice.id, "username": gone}
    ]


@pytest.mark.django_db(transaction=True)
def test_two_deletions_of_one_account_at_once_both_answer_204(make_player: MakeUser) -> None:
    """A person who taps "Delete" twice, or on two devices, sends two deletions that both pass
    the sign-in before either takes the account's lock: the second then finds the account gone.
    What it asked for is done, so it answers 204 as the first did (a 404 ``not_found``, as it
    did, is not among the call's documented answers, and told a client its deletion failed).
    Made deterministic: the account's row is held until both are seen waiting for it."""
    if connection.vendor != "postgresql":
        pytest.skip("the requests are seen waiting in PostgreSQL's pg_locks")
    alice = player_for(make_player("alice"))

    def delete_in_a_thread() -> Any:
        try:
            return delete(Player(alice.user, alice.fresh_client(), alice.token))
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        with transaction.atomic():
            lock_player(alice.id)
            first = pool.submit(delete_in_a_thread)
            await_waiting(first, "the first deletion")
            second = pool.submit(delete_in_a_thread)
            await_waiting(second, "the second deletion", at_least=2)
        results = [answer.result(timeout=WAIT) for answer in (first, second)]

    assert [result.status_code for result in results] == [204, 204], [
        result.content for result in results
    ]
    assert DeletedAccount.objects.filter(user_id=alice.id).count() == 1
    assert User.objects.get(pk=alice.id).username.startswith("deleted-")
    refused(alice.client.get(ME), 401, "not_authenticated")


def test_without_a_token_nothing_is_deleted(people: list[Player]) -> None:
    refused(
        APIClient().post(DELETE, {"password": PASSWORD}, format="json"), 401, "not_authenticated"
    )
    assert not DeletedAccount.objects.exists()


def test_the_players_of_a_waiting_game_its_host_deleted_are_told_it_is_off(
    people: list[Player],
) -> None:
    """A deleted host's waiting game is abandoned: its other players waited on for a game that
    would never start, told nothing (their lists dropped it at their next read at best). Each
    person seated is told (``game_abandoned``, with the others who waited: the host is gone);
    a bot's seat is not; the game lists show it abandoned, no longer waiting."""
    alice, bob, cy = people
    hers = create_game(alice, max_players=5, bots=["basic"])
    for player in (bob, cy):
        ok(player.client.post(game_url(hers["id"], "join")))
    bot = Game.objects.get(pk=hers["id"]).roster[1]

    assert delete(alice).status_code == 204

    game = Game.objects.get(pk=hers["id"])
    assert game.status == GameStatus.ABANDONED
    told = Notification.objects.filter(kind="game_abandoned", game=game).order_by("player_id")
    assert [(n.player_id, n.data["seat"]) for n in told] == [(bob.id, 2), (cy.id, 3)]
    assert told[0].data["others"] == [
        {"id": bot["id"], "username": bot["username"]},
        {"id": cy.id, "username": "cy"},
    ]
    assert not any(named(n, "alice") for n in told)
    for player in (bob, cy):
        inbox = ok(player.client.get("/api/v1/notifications/", {"unread": "true"}))["results"]
        assert inbox[0]["kind"] == "game_abandoned" and inbox[0]["game"] == hers["id"]
        waiting = ok(player.client.get("/api/v1/games/", {"mine": "true", "status": "waiting"}))
        assert waiting["count"] == 0
        mine = ok(player.client.get("/api/v1/games/", {"mine": "true"}))["results"]
        assert [(g["id"], g["status"]) for g in mine] == [(hers["id"], "abandoned")]
