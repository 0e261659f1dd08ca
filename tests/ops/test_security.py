"""Security: who may act and see what, throttling, password rules, CORS, the admin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from games.models import Event, Game
from players.models import AccessToken
from players.sessions import digest
from tests.support.players import PASSWORD, MakePlayer
from tests.support.table import GAMES, Table

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"
LOGOUT = "/api/v1/auth/logout/"
SetRates = Callable[..., None]


def log_size(table: Table) -> tuple[int, int]:
    return Game.objects.get(pk=table.id).version, Event.objects.filter(game_id=table.id).count()


# --- seats ----------------------------------------------------------------------------------------


def test_a_player_without_a_seat_cannot_act(table: Table, make_player: MakePlayer) -> None:
    outsider = make_player("eve")
    before = log_size(table)

    for body in ({"action": "draw"}, {"action": "uno"}, {"action": "catch", "target": 0}):
        response = outsider.client.post(table.url("actions"), body, format="json")
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "not_a_player"
    resigned = outsider.client.post(table.url("resign"))

    assert resigned.status_code == 403
    assert log_size(table) == before


def test_a_player_without_a_seat_sees_no_hand(table: Table, make_player: MakePlayer) -> None:
    outsider = make_player("eve").client
    hands = table.hands()

    view = outsider.get(table.url()).json()
    events = outsider.get(table.url("events")).json()["events"]
    version = view["version"]
    replay = outsider.get(table.url("replay"), {"at": version}).json()

    for shown in (view, replay):
        assert shown["you"] is None
        assert [s["hand_count"] for s in shown["seats"]] == [len(hands[0]), len(hands[1])]
        assert all(not s.get("hand") for s in shown["seats"])
        assert shown.get("revealed") in (None, {})
    for event in events:
        if event["type"] in {"cards_drawn", "round_started"}:
            assert "cards" not in event["data"] and "deck" not in event["data"], event
    # The players themselves see their own hand, and only theirs.
    for seat in (0, 1):
        own = table.view(seat)
        assert sorted(own["you"]["hand"]) == sorted(hands[seat])
        assert all(not s.get("hand") for s in own["seats"])


def test_a_seat_cannot_act_for_another(table: Table) -> None:
    actor = table.actor()
    other = table.players[1 - actor].client
    before = log_size(table)

    out_of_turn = other.post(table.url("actions"), {"action": "draw"}, format="json")
    naming_a_seat = other.post(
        table.url("actions"), {"action": "draw", "seat": actor}, format="json"
    )
    as_header = other.post(
        table.url("actions"), {"action": "draw"}, format="json", HTTP_X_SEAT=str(actor)
    )

    assert out_of_turn.status_code == 409 and out_of_turn.json()["code"] == "not_your_turn"
    assert naming_a_seat.status_code == 400 and naming_a_seat.json()["code"] == "invalid"
    assert as_header.status_code == 409 and as_header.json()["code"] == "not_your_turn"
    assert log_size(table) == before


def test_acting_needs_a_token(table: Table) -> None:
    response = APIClient().post(table.url("actions"), {"action": "draw"}, format="json")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


# --- throttling -----------------------------------------------------------------------------------


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled" and body["detail"]
    assert int(response["Retry-After"]) > 0


def test_registration_is_throttled_per_address(throttle_rates: SetRates) -> None:
    throttle_rates(registration="2/hour")
    api = APIClient()

    answers = [
        api.post(REGISTER, {"username": f"new{i}", "password": PASSWORD}, format="json")
        for i in range(3)
    ]
    # A forged X-Forwarded-For does not make a new client (NUM_PROXIES is 0).
    forged = api.post(
        REGISTER,
        {"username": "new9", "password": PASSWORD},
        format="json",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.7").post(
        REGISTER, {"username": "new10", "password": PASSWORD}, format="json"
    )

    assert [a.status_code for a in answers[:2]] == [201, 201]
    assert_throttled(answers[2])
    assert_throttled(forged)
    assert elsewhere.status_code == 201


def test_guests_are_throttled_per_address_with_registrations(throttle_rates: SetRates) -> None:
    throttle_rates(registration="2/hour")
    api = APIClient()

    registered = api.post(REGISTER, {"username": "new1", "password": PASSWORD}, format="json")
    guests = [api.post("/api/v1/players/guest/") for _ in range(2)]
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.8").post("/api/v1/players/guest/")

    assert [registered.status_code, guests[0].status_code] == [201, 201]
    assert_throttled(guests[1])
    assert elsewhere.status_code == 201
    assert not User.objects.filter(username__in=["new2", "new9"]).exists()


def test_token_requests_are_throttled(throttle_rates: SetRates, make_player: MakePlayer) -> None:
    throttle_rates(token="3/minute")
    player = make_player("ada")
    api = APIClient()
    credentials = {"username": player.user.username, "password": PASSWORD}

    answers = [api.post(TOKEN, credentials, format="json") for _ in range(4)]

    assert [a.status_code for a in answers[:3]] == [200, 200, 200]
    assert_throttled(answers[3])


def test_actions_are_throttled_per_player(throttle_rates: SetRates, table: Table) -> None:
    throttle_rates(actions="2/minute")
    actor = table.actor()
    player = table.players[actor].client
    other = table.players[1 - actor].client

    answers = [
        player.post(table.url("actions"), {"action": "uno"}, format="json") for _ in range(3)
    ]
    others = other.post(table.url("actions"), {"action": "uno"}, format="json")
    reading = player.get(table.url())

    assert all(a.status_code != 429 for a in answers[:2])
    assert_throttled(answers[2])
    assert others.status_code != 429, "each player has a count of their own"
    assert reading.status_code == 200, "reads are not throttled"


def test_throttling_can_be_turned_off(throttle_rates: SetRates) -> None:
    throttle_rates(registration=None)
    api = APIClient()

    codes = {
        api.post(
            REGISTER, {"username": f"free{i}", "password": PASSWORD}, format="json"
        ).status_code
        for i in range(5)
    }

    assert codes == {201}


# --- accounts -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1", "too short"),
        ("12345678901", "entirely numeric"),
        ("password123", "too common"),
        ("carefulcarol", "too similar"),
    ],
)
def test_registration_applies_the_password_validators(password: str, why: str) -> None:
    response = APIClient().post(
        REGISTER, {"username": "carefulcarol", "password": password}, format="json"
    )

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert why in response.json()["detail"].lower()
    assert not User.objects.filter(username="carefulcarol").exists()


def test_logout_ends_the_session(make_player: MakePlayer) -> None:
    player = make_player("ada")

    response = player.client.post(LOGOUT)

    assert response.status_code == 204
    assert not AccessToken.objects.filter(digest=digest(player.token)).exists()
    assert player.client.get(GAMES).status_code == 401


# --- browsers -------------------------------------------------------------------------------------


def test_cors_allows_the_configured_origins_only(settings: Settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://play.example.com"]
    client = Client()
    preflight = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    }

    allowed = client.options(GAMES, headers={"Origin": "https://play.example.com", **preflight})
    other = client.options(GAMES, headers={"Origin": "https://evil.example.net", **preflight})
    simple = client.get(GAMES, headers={"Origin": "https://play.example.com"})

    assert allowed.status_code == 200
    assert allowed["Access-Control-Allow-Origin"] == "https://play.example.com"
    assert "idempotency-key" in allowed["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Credentials" not in allowed, "tokens, not cookies"
    assert "Access-Control-Allow-Origin" not in other
    assert "Retry-After" in simple["Access-Control-Expose-Headers"]


def test_cors_is_off_by_default() -> None:
    response = Client().get(GAMES, HTTP_ORIGIN="https://play.example.com")

    assert "Access-Control-Allow-Origin" not in response


def test_the_admin_is_for_staff_only(make_player: MakePlayer) -> None:
    player = make_player("ada")
    staff = make_player("boss", staff=True)
    client = Client()

    anonymous = client.get("/admin/")
    client.force_login(player.user)
    not_staff = client.get("/admin/")
    client.force_login(staff.user)
    as_staff = client.get("/admin/")

    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    assert not_staff.status_code == 302 and "/admin/login/" in not_staff["Location"]
    assert as_staff.status_code == 200


def test_a_token_does_not_open_the_admin(make_player: MakePlayer) -> None:
    staff = make_player("boss", staff=True)

    response = Client().get("/admin/", HTTP_AUTHORIZATION=f"Token {staff.token}")

    assert response.status_code == 302
