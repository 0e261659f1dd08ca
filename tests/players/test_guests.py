"""Guest accounts through HTTP: one click to a token, play, claim it with a name and a password,
and unclaimed guests removed after ``GUEST_DAYS`` days with their waiting games."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.engine.limits import GUEST_DAYS
from games.models import Game, GameStatus, Seat
from notifications.models import Notification
from players.models import Guest, Rating, Session
from service.guests import remove_stale_guests
from tests.support.players import PASSWORD, MakeUser, client_for, client_with
from unoservice.celery import app as celery_app

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/players/guest/"
REGISTER = "/api/v1/players/"
CLAIM = "/api/v1/players/me/claim/"
ME = "/api/v1/players/me/"
TOKEN = "/api/v1/auth/token/"
GAMES = "/api/v1/games/"


def new_guest(api: APIClient) -> tuple[dict[str, Any], APIClient]:
    response = api.post(GUEST)
    assert response.status_code == 201, response.content
    body = response.json()
    return body, client_with(body["token"])


def test_a_guest_gets_a_name_and_a_token_with_no_body_and_plays(api: APIClient) -> None:
    body, guest = new_guest(api)

    assert set(body) == {"id", "username", "token", "guest", "access", "access_expires_at"} | {
        "refresh",
        "refresh_expires_at",
        "session",
    }
    assert body["guest"] is True and body["username"].startswith("guest-")
    user = User.objects.get(pk=body["id"])
    assert not user.has_usable_password()
    assert body["token"] == body["access"]
    assert Session.objects.get(user=user).pk == UUID(body["session"])
    me = guest.get(ME).json()
    assert (me["id"], me["username"], me["guest"]) == (body["id"], body["username"], True)
    # Playing against bots: one request creates and starts the game.
    created = guest.post(GAMES, {"max_players": 4, "bots": ["basic"] * 3}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["status"] == "active"
    # Two guests never share a name.
    other, _ = new_guest(api)
    assert other["username"] != body["username"]


def test_a_guest_cannot_sign_in_with_a_password(api: APIClient) -> None:
    body, _ = new_guest(api)

    answer = api.post(TOKEN, {"username": body["username"], "password": PASSWORD}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_credentials")


def test_claiming_keeps_the_games_and_the_token_and_asks_for_a_password(api: APIClient) -> None:
    body, guest = new_guest(api)
    game = guest.post(GAMES, {"max_players": 2}, format="json").json()

    claimed = guest.post(CLAIM, {"username": "carla", "password": PASSWORD}, format="json")

    assert claimed.status_code == 200, claimed.content
    me = claimed.json()
    assert (me["id"], me["username"], me["guest"]) == (body["id"], "carla", False)
    assert guest.get(ME).json()["username"] == "carla"  # the same token still signs in
    assert not Guest.objects.filter(user_id=body["id"]).exists()
    assert Seat.objects.filter(game_id=game["id"], player_id=body["id"]).exists()
    token = api.post(TOKEN, {"username": "carla", "password": PASSWORD}, format="json")
    assert token.status_code == 200  # a new session; the guest's own goes on
    assert token.json()["session"] != body["session"]
    assert guest.get(ME).status_code == 200
    again = guest.post(CLAIM, {"username": "carla2", "password": PASSWORD}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_a_guest"


def test_a_claimed_guest_is_shown_by_its_new_name_at_every_table(
    api: APIClient, make_player: MakeUser
) -> None:
    body, guest = new_guest(api)
    host = client_for(make_player("hugo"))
    waiting = host.post(GAMES, {"max_players": 3}, format="json").json()
    assert guest.post(f"{GAMES}{waiting['id']}/join/").status_code == 200
    with_bots = guest.post(GAMES, {"max_players": 2, "bots": ["basic"]}, format="json").json()
    tables = ((waiting, host), (waiting, guest), (with_bots, guest))
    before = [names(viewer, game) for game, viewer in tables]

    claimed = guest.post(CLAIM, {"username": "carla", "password": PASSWORD}, format="json")

    assert claimed.status_code == 200, claimed.content
    # The guest's seat shows the new name; every other seat (the host's, the bot's) is as it was.
    for (game, viewer), seated in zip(tables, before, strict=True):
        assert body["username"] in seated
        renamed = ["carla" if name == body["username"] else name for name in seated]
        assert names(viewer, game) == renamed
    listed = guest.get(GAMES, {"mine": "true"}).json()["results"]
    assert {s["player"]["username"] for g in listed for s in g["seats"] if s["player"]} >= {
        "carla",
        "hugo",
    }
    assert body["username"] not in str(listed)


def test_a_claimed_guest_is_named_anew_in_the_other_players_notifications(
    api: APIClient, make_player: MakeUser
) -> None:
    """The other players' notifications that named the guest (a seat taken, whom a game is with,
    a challenge's ``by``) kept its ``guest-…`` name in their inbox, player stream and export after
    the claim; a deleted account's name was already rewritten there. Now a claim rewrites it."""
    body, guest = new_guest(api)
    hugo = make_player("hugo")
    host = client_for(hugo)
    waiting = host.post(GAMES, {"max_players": 3}, format="json").json()
    assert guest.post(f"{GAMES}{waiting['id']}/join/").status_code == 200
    duel = host.post(GAMES, {"max_players": 2}, format="json").json()
    assert guest.post(f"{GAMES}{duel['id']}/join/").status_code == 200
    dared = guest.post("/api/v1/challenges/", {"to": "hugo"}, format="json")
    assert dared.status_code == 201, dared.content
    his = Notification.objects.filter(player=hugo)
    assert {n.kind for n in his} >= {"player_joined", "game_started", "challenge"}
    assert all(body["username"] in str(n.data) for n in his if n.kind != "your_turn")

    claimed = guest.post(CLAIM, {"username": "carla", "password": PASSWORD}, format="json")

    assert claimed.status_code == 200, claimed.content
    inbox = host.get("/api/v1/notifications/").json()["results"]
    assert body["username"] not in str(inbox)
    ref = {"id": body["id"], "username": "carla"}
    by_kind = {n["kind"]: n["data"] for n in inbox}
    assert by_kind["player_joined"]["player"] == ref
    assert by_kind["game_started"]["others"] == [ref]
    assert by_kind["challenge"]["by"] == ref


def test_a_claimed_guest_is_named_anew_in_a_waiting_game_it_had_left(
    api: APIClient, make_player: MakeUser
) -> None:
    """A guest that joined a waiting game and left it before the claim has no seat there: the
    claim renamed only its games' notifications, found by their seats, and the host's
    ``player_joined`` (whom the host saw come and go) still said the ``guest-…`` name."""
    body, guest = new_guest(api)
    hugo = make_player("hugo")
    host = client_for(hugo)
    waiting = host.post(GAMES, {"max_players": 3}, format="json").json()
    assert guest.post(f"{GAMES}{waiting['id']}/join/").status_code == 200
    assert guest.post(f"{GAMES}{waiting['id']}/leave/").status_code == 200
    joined = Notification.objects.get(player=hugo, kind="player_joined")
    assert joined.data["player"]["username"] == body["username"]

    claimed = guest.post(CLAIM, {"username": "carla", "password": PASSWORD}, format="json")

    assert claimed.status_code == 200, claimed.content
    inbox = host.get("/api/v1/notifications/").json()["results"]
    assert body["username"] not in str(inbox)
    assert [n["data"]["player"] for n in inbox if n["kind"] == "player_joined"] == [
        {"id": body["id"], "username": "carla"}
    ]


def names(viewer: APIClient, game: dict[str, Any]) -> list[str]:
    """The seats' names of ``game`` as ``viewer`` sees them."""
    seats = viewer.get(f"{GAMES}{game['id']}/").json()["seats"]
    return [seat["player"]["username"] for seat in seats if seat["player"]]


@pytest.mark.parametrize(
    ("claim", "status", "code"),
    [
        ({"username": "Taken", "password": PASSWORD}, 409, "username_taken"),
        ({"username": "carla", "password": "123"}, 400, "invalid"),
        ({"username": "no spaces", "password": PASSWORD}, 400, "invalid"),
        ({"username": "carla"}, 400, "invalid"),
        ({"username": "carla", "password": PASSWORD, "extra": 1}, 400, "invalid"),
    ],
)
def test_a_refused_claim_changes_nothing(
    api: APIClient, make_player: MakeUser, claim: dict[str, Any], status: int, code: str
) -> None:
    make_player("taken")
    body, guest = new_guest(api)

    answer = guest.post(CLAIM, claim, format="json")

    assert (answer.status_code, answer.json()["code"]) == (status, code)
    user = User.objects.get(pk=body["id"])
    assert user.username == body["username"] and not user.has_usable_password()
    assert Guest.objects.filter(user=user).exists()


# Names of a guest's form: the generated form itself, any case, and anything after the prefix
# (a person named "guest-…" would pass for a guest, and a guest for someone else).
GUEST_LIKE = ["guest-k7p2m9xq", "GUEST-K7P2M9XQ", "Guest-star", "guest-", "guest-0000000000"]


@pytest.mark.parametrize("username", GUEST_LIKE)
def test_a_guest_cannot_claim_a_name_of_a_guests_form(api: APIClient, username: str) -> None:
    body, guest = new_guest(api)
    other, _ = new_guest(api)

    for name in (username, body["username"], other["username"]):
        answer = guest.post(CLAIM, {"username": name, "password": PASSWORD}, format="json")

        assert answer.status_code == 400, answer.content
        refusal = answer.json()
        assert refusal["code"] == "username_reserved"
        assert "guest-" in refusal["detail"] and refusal["detail"].startswith("username:")
    user = User.objects.get(pk=body["id"])
    assert user.username == body["username"] and not user.has_usable_password()
    assert Guest.objects.filter(user=user).exists()
    assert guest.get(ME).json()["guest"] is True


@pytest.mark.parametrize("username", GUEST_LIKE)
def test_nobody_registers_a_name_of_a_guests_form(api: APIClient, username: str) -> None:
    answer = api.post(REGISTER, {"username": username, "password": PASSWORD}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (400, "username_reserved")
    assert not User.objects.filter(username__iexact=username).exists()


@pytest.mark.parametrize("username", ["guesthouse", "guest", "guest_k7p2m9xq", "my-guest-k7p2m9xq"])
def test_names_with_guest_elsewhere_are_fine(api: APIClient, username: str) -> None:
    _, guest = new_guest(api)

    registered = api.post(REGISTER, {"username": username, "password": PASSWORD}, format="json")
    claimed = guest.post(CLAIM, {"username": f"{username}2", "password": PASSWORD}, format="json")

    assert registered.status_code == 201, registered.content
    assert claimed.status_code == 200, claimed.content


def test_a_registered_player_cannot_claim(make_player: MakeUser) -> None:
    answer = client_for(make_player("dora")).post(
        CLAIM, {"username": "dora2", "password": PASSWORD}, format="json"
    )

    assert (answer.status_code, answer.json()["code"]) == (409, "not_a_guest")


def _finish(host: APIClient, other: APIClient) -> None:
    """A 2-player game between ``host`` and ``other``, ended by ``other`` resigning."""
    game = host.post(GAMES, {"max_players": 2}, format="json").json()
    assert other.post(f"{GAMES}{game['id']}/join/").status_code == 200
    assert other.post(f"{GAMES}{game['id']}/resign/").status_code == 200
    assert Game.objects.get(pk=game["id"]).status == GameStatus.FINISHED


def test_games_with_a_guest_are_not_rated_until_it_is_claimed(
    api: APIClient, make_player: MakeUser
) -> None:
    erin = make_player("erin")
    _, guest = new_guest(api)

    _finish(client_for(erin), guest)
    assert not Rating.objects.exists()

    guest.post(CLAIM, {"username": "fay", "password": PASSWORD}, format="json")
    _finish(client_for(erin), guest)
    assert Rating.objects.filter(user=erin, games_played=1).exists()


def _age(user_id: int, days: int) -> None:
    Guest.objects.filter(user_id=user_id).update(created_at=timezone.now() - timedelta(days=days))


def test_guests_unclaimed_for_the_days_are_removed_with_their_waiting_games(
    api: APIClient, make_player: MakeUser
) -> None:
    gina = client_for(make_player("gina"))
    stale, guest = new_guest(api)
    hosted = guest.post(GAMES, {"max_players": 3}, format="json").json()
    joined = gina.post(GAMES, {"max_players": 3}, format="json").json()
    assert guest.post(f"{GAMES}{joined['id']}/join/").status_code == 200
    assert gina.post(f"{GAMES}{hosted['id']}/join/").status_code == 200
    _finish(gina, guest)  # a finished game, which stays
    idle, _ = new_guest(api)  # never sat anywhere: deleted outright
    young, _ = new_guest(api)
    claimed, claimer = new_guest(api)
    claimer.post(CLAIM, {"username": "hana", "password": PASSWORD}, format="json")
    for user_id in (stale["id"], idle["id"], claimed["id"]):
        _age(user_id, GUEST_DAYS + 1)
    _age(young["id"], GUEST_DAYS - 1)

    # The beat's daily task runs this (its result backend is left alone: the worker suites
    # configure one of their own).
    celery_app.loader.import_default_modules()  # what a worker imports as it starts
    assert "players.remove_stale_guests" in celery_app.tasks
    assert remove_stale_guests() == 2

    assert Game.objects.get(pk=hosted["id"]).status == GameStatus.ABANDONED
    # gina, who waited at the guest's game, is told it will not start.
    told = Notification.objects.get(kind="game_abandoned")
    assert (told.player.username, str(told.game_id)) == ("gina", hosted["id"])
    still_waiting = Game.objects.get(pk=joined["id"])
    assert still_waiting.status == GameStatus.WAITING
    assert [entry["username"] for entry in still_waiting.roster] == ["gina"]
    removed = User.objects.get(pk=stale["id"])
    assert not removed.is_active and not Token.objects.filter(user=removed).exists()
    assert not Session.objects.filter(user=removed).exists()
    assert Seat.objects.filter(player=removed, game__status=GameStatus.FINISHED).count() == 1
    assert guest.get(ME).status_code == 401
    assert not User.objects.filter(pk=idle["id"]).exists()
    assert User.objects.get(pk=young["id"]).is_active
    assert User.objects.get(pk=claimed["id"]).is_active
    assert remove_stale_guests() == 0  # the removed stay removed
