"""Registration, tokens and logout, through HTTP."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.models import Session
from tests.support.players import PASSWORD, MakeUser

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"
LOGOUT = "/api/v1/auth/logout/"
ME = "/api/v1/players/me/"
PAIR = ("token", "access", "access_expires_at", "refresh", "refresh_expires_at", "session")


def test_register_get_a_token_and_read_me(api: APIClient) -> None:
    response = api.post(REGISTER, {"username": "alice", "password": PASSWORD}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "username", *PAIR}
    assert body["username"] == "alice"
    user = User.objects.get(pk=body["id"])
    assert user.check_password(PASSWORD)
    assert not user.is_staff

    response = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert token == response.json()["access"]
    assert not Token.objects.exists()  # no old DRF key any more: a session

    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.get(ME)
    assert response.status_code == 200
    me = response.json()
    assert me["id"] == user.pk
    assert me["username"] == "alice"
    assert me["is_staff"] is False
    assert me["stats"] == {"games_played": 0, "games_won": 0, "games_active": 0}
    assert me["date_joined"].endswith(("Z", "+00:00"))


def test_each_sign_in_is_a_session_of_its_own(api: APIClient, make_player: MakeUser) -> None:
    make_player("alice")
    credentials = {"username": "alice", "password": PASSWORD}

    first = api.post(TOKEN, credentials, format="json").json()
    second = api.post(TOKEN, credentials, format="json").json()

    assert first["access"] != second["access"] and first["session"] != second["session"]


def test_register_ignores_a_bad_token_header(api: APIClient) -> None:
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = api.post(REGISTER, {"username": "alice", "password": PASSWORD}, format="json")

    assert response.status_code == 201


def test_password_validators_refuse_a_weak_password(api: APIClient) -> None:
    for password in ["short", "12345678901", "password123", "alice2026"]:
        response = api.post(REGISTER, {"username": "alice", "password": password}, format="json")

        assert response.status_code == 400, password
        body = response.json()
        assert body["code"] == "invalid"
        assert body["detail"].startswith("password: ")
    assert not User.objects.exists()


def test_password_validator_messages_are_in_the_detail(api: APIClient) -> None:
    response = api.post(REGISTER, {"username": "alice", "password": "1234"}, format="json")

    detail = response.json()["detail"]
    assert "too short" in detail
    assert "too common" in detail
    assert "entirely numeric" in detail


def test_password_keeps_its_spaces(api: APIClient) -> None:
    password = f"  {PASSWORD}  "
    response = api.post(REGISTER, {"username": "alice", "password": password}, format="json")

    assert response.status_code == 201
    assert User.objects.get(username="alice").check_password(password)


@pytest.mark.parametrize(
    "username",
    ["", "   ", "a" * 151, "with space", "semi;colon", "slash/", "emoji😀", "nul\u0000char"],
)
def test_usernames_django_refuses(api: APIClient, username: str) -> None:
    response = api.post(REGISTER, {"username": username, "password": PASSWORD}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["a" * 150, "a.b+c-d_e@f", "Zoë", "7"])
def test_usernames_django_accepts(api: APIClient, username: str) -> None:
    response = api.post(REGISTER, {"username": username, "password": PASSWORD}, format="json")

    assert response.status_code == 201
    assert response.json()["username"] == username


def test_duplicate_username(api: APIClient, make_player: MakeUser) -> None:
    make_player("alice")

    for username in ["alice", "ALICE"]:
        response = api.post(REGISTER, {"username": username, "password": PASSWORD}, format="json")

        assert response.status_code == 409
        assert response.json()["code"] == "username_taken"
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "credentials",
    [
        {"username": "alice", "password": "wrong-password-123"},
        {"username": "nobody", "password": PASSWORD},
        {"username": "Alice", "password": PASSWORD},
        {"username": "alice", "password": f"{PASSWORD} "},
    ],
)
def test_wrong_credentials(
    api: APIClient, make_player: MakeUser, credentials: dict[str, str]
) -> None:
    make_player("alice")

    response = api.post(TOKEN, credentials, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"
    assert not Token.objects.exists() and not Session.objects.exists()


def test_inactive_player_gets_no_token(api: APIClient, make_player: MakeUser) -> None:
    make_player("alice", is_active=False)

    response = api.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_logout_makes_the_token_stop_working(api: APIClient, make_player: MakeUser) -> None:
    make_player("alice")
    credentials = {"username": "alice", "password": PASSWORD}
    token = api.post(TOKEN, credentials, format="json").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(ME).status_code == 200

    response = api.post(LOGOUT)

    assert response.status_code == 204
    assert not response.content
    for call in (lambda: api.get(ME), lambda: api.post(LOGOUT)):
        refused = call()
        assert refused.status_code == 401
        assert refused.json()["code"] == "not_authenticated"
    # The stale header does not stop getting a new token, which differs from the old one.
    again = api.post(TOKEN, credentials, format="json")
    assert again.status_code == 200
    assert again.json()["token"] != token


def test_logout_needs_a_token(api: APIClient) -> None:
    response = api.post(LOGOUT)

    assert response.status_code == 401
    assert response.json() == {"code": "not_authenticated", "detail": response.json()["detail"]}


def test_a_field_registration_or_sign_in_does_not_take_is_refused(
    api: APIClient, make_player: MakeUser
) -> None:
    """Every other body refused an unknown field; these two ignored it, and a client's typo
    (``pasword``) or a field it believed heard went unnoticed."""
    body = {"username": "newcomer", "password": PASSWORD, "remember_me": True}
    refused = api.post("/api/v1/players/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid", refused.json()
    assert not User.objects.filter(username="newcomer").exists()
    make_player("ada")
    body = {"username": "ada", "password": PASSWORD, "remember_me": True}
    refused = api.post("/api/v1/auth/token/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid", refused.json()
    assert not Session.objects.exists()
