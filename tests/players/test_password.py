"""Changing the password (``POST /api/v1/players/me/password/``): the new one signs in and the
old one no more; every other session of the player ends, the caller's goes on; a wrong current
password, a new one the validators refuse, a guest and a malformed body are refused, each with
its code, and change nothing. A bot account's owner changes it with the password."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from players.models import Session
from tests.support.players import PASSWORD, MakeUser, client_with, legacy_token_of

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
REFRESH = "/api/v1/auth/refresh/"
ME = "/api/v1/players/me/"
PASSWORD_CHANGE = "/api/v1/players/me/password/"
SESSIONS = "/api/v1/players/me/sessions/"
NEW = "staple-lantern-orbit-4"


@pytest.fixture
def alice(make_player: MakeUser) -> User:
    return make_player("alice")


def sign_in(api: APIClient, password: str = PASSWORD) -> Any:
    return api.post(TOKEN, {"username": "alice", "password": password}, format="json")


def pair(api: APIClient) -> dict[str, Any]:
    answer = sign_in(api)
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


def change(access: str, current: str = PASSWORD, new: str = NEW) -> Any:
    body = {"current_password": current, "new_password": new}
    return client_with(access).post(PASSWORD_CHANGE, body, format="json")


def test_the_new_password_signs_in_and_every_other_session_ends(
    api: APIClient, alice: User
) -> None:
    laptop, phone, tablet = pair(api), pair(api), pair(api)

    answer = change(laptop["access"])

    assert answer.status_code == 200, answer.content
    assert answer.json() == {"sessions_ended": 2}
    refused = sign_in(api)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_credentials"
    assert sign_in(api, NEW).status_code == 200
    # The phone and the tablet are signed out: their access and refresh tokens are refused.
    for other in (phone, tablet):
        gone = client_with(other["access"]).get(ME)
        assert gone.status_code == 401 and gone.json()["code"] == "not_authenticated"
        stale = api.post(REFRESH, {"refresh": other["refresh"]}, format="json")
        assert stale.status_code == 401 and stale.json()["code"] == "not_authenticated"
    # The laptop goes on, and refreshes as before.
    assert client_with(laptop["access"]).get(ME).json()["username"] == "alice"
    assert api.post(REFRESH, {"refresh": laptop["refresh"]}, format="json").status_code == 200
    ended = Session.objects.filter(user=alice, ended_why=Session.ENDED_PASSWORD)
    assert {str(s.pk) for s in ended} == {phone["session"], tablet["session"]}


def test_a_wrong_current_password_changes_nothing(api: APIClient, alice: User) -> None:
    mine, other = pair(api), pair(api)

    answer = change(mine["access"], current="not my password")

    assert answer.status_code == 400 and answer.json()["code"] == "invalid_credentials"
    assert sign_in(api).status_code == 200
    assert sign_in(api, NEW).status_code == 400
    assert client_with(other["access"]).get(ME).status_code == 200


@pytest.mark.parametrize(
    ("new", "codes"),
    [
        ("Xy9!k", ["password_too_short"]),
        ("12345678", ["password_too_common", "password_entirely_numeric"]),
        ("alice", ["password_too_common", "password_too_short", "password_too_similar"]),
    ],
)
def test_a_new_password_the_validators_refuse_is_named_by_its_checks(
    api: APIClient, alice: User, new: str, codes: list[str]
) -> None:
    mine, other = pair(api), pair(api)

    answer = change(mine["access"], new=new)

    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid"
    assert sorted(check["code"] for check in body["fields"]["new_password"]) == sorted(codes)
    assert sign_in(api).status_code == 200
    assert client_with(other["access"]).get(ME).status_code == 200


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"new_password": NEW}, "current_password", "required"),
        ({"current_password": PASSWORD}, "new_password", "required"),
        ({"current_password": PASSWORD, "new_password": NEW, "also": 1}, "also", "unknown_field"),
        ({"current_password": PASSWORD, "new_password": 12345678}, "new_password", "invalid"),
    ],
)
def test_a_malformed_body_is_refused_field_by_field(
    api: APIClient, alice: User, body: dict[str, Any], field: str, code: str
) -> None:
    answer = client_with(pair(api)["access"]).post(PASSWORD_CHANGE, body, format="json")

    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert [check["code"] for check in answer.json()["fields"][field]] == [code]
    assert sign_in(api).status_code == 200


def test_a_guest_has_no_password_to_change(api: APIClient) -> None:
    guest = api.post("/api/v1/players/guest/").json()

    answer = change(guest["access"], current="a guess")

    assert answer.status_code == 409 and answer.json()["code"] == "guest_account"


def test_a_bot_accounts_owner_changes_it_with_the_password(api: APIClient, alice: User) -> None:
    """A bot account's tokens are scoped to play, but the password, not the token, makes this
    change: the owner can rotate a leaked one; the program's other sessions end."""
    access = pair(api)["access"]
    assert client_with(access).post("/api/v1/players/me/bot-account/").status_code == 200
    program = pair(api)["access"]

    wrong = change(access, current="a guess")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_credentials"
    answer = change(access)

    assert answer.status_code == 200 and answer.json() == {"sessions_ended": 1}
    assert client_with(program).get("/api/v1/players/me/").status_code == 401
    assert sign_in(api).status_code == 400  # the old password


def test_without_a_token_it_is_refused(api: APIClient, alice: User) -> None:
    body = {"current_password": PASSWORD, "new_password": NEW}
    answer = api.post(PASSWORD_CHANGE, body, format="json")

    assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated"
    assert sign_in(api).status_code == 200


def test_old_keys_are_deleted_but_the_callers_own(api: APIClient, alice: User) -> None:
    """An old DRF key (``UNO_LEGACY_TOKENS``) signs in no more once the password changes from a
    session; changed with the key itself, the key goes on (and the sessions end)."""
    key = legacy_token_of(alice)
    assert change(pair(api)["access"]).status_code == 200
    assert client_with(key).get(ME).status_code == 401

    key = legacy_token_of(alice)
    session = sign_in(api, NEW).json()
    answer = change(key, current=NEW, new=PASSWORD)
    assert answer.status_code == 200 and answer.json() == {"sessions_ended": 2}
    assert client_with(key).get(ME).status_code == 200
    assert client_with(session["access"]).get(ME).status_code == 401
