"""Sessions (players.sessions) through HTTP: the pair, expiry, rotation, reuse detection, the
session list, ending one, logout, the old DRF keys behind UNO_LEGACY_TOKENS, and what stays tied
to the player across refreshes (stream tickets, webhooks, Web Push)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from notifications.webpush import generate_private_key
from players import authentication, sessions
from players.models import AccessToken, RefreshToken, Session
from players.sessions import truncate_address
from tests.notifications.test_push import Browser
from tests.support.players import PASSWORD, MakeUser, client_with, legacy_token_of

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
REFRESH = "/api/v1/auth/refresh/"
LOGOUT = "/api/v1/auth/logout/"
ME = "/api/v1/players/me/"
SESSIONS = "/api/v1/players/me/sessions/"
TICKET = "/api/v1/auth/stream-ticket/"
WEBHOOKS = "/api/v1/webhooks/"
UA = "Mozilla/5.0 (Android 15; Mobile) UnoTest/1.0"


def sign_in(api: APIClient, username: str = "alice", **extra: Any) -> dict[str, Any]:
    response = api.post(TOKEN, {"username": username, "password": PASSWORD}, format="json", **extra)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def refresh(api: APIClient, token: str) -> Any:
    return api.post(REFRESH, {"refresh": token}, format="json")


def expire_access(pair: dict[str, Any]) -> None:
    """Move the pair's access token past its expiry (no sleeping)."""
    moved = AccessToken.objects.filter(digest=sessions.digest(pair["access"])).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert moved == 1


@pytest.fixture
def alice(make_player: MakeUser) -> User:
    return make_player("alice")


def test_login_answers_the_pair_and_the_access_token_works(api: APIClient, alice: User) -> None:
    before = timezone.now()
    pair = sign_in(api)

    assert pair["access"].startswith("uat_") and pair["refresh"].startswith("urt_")
    assert pair["token"] == pair["access"]  # the old field, for old clients
    access_expires = datetime.fromisoformat(pair["access_expires_at"])
    refresh_expires = datetime.fromisoformat(pair["refresh_expires_at"])
    started = Session.objects.get(user=alice).created_at
    assert str(Session.objects.get(user=alice).pk) == pair["session"]
    assert started >= before
    assert access_expires - started == timedelta(seconds=3600)
    assert refresh_expires - started == timedelta(days=30)
    assert client_with(pair["access"]).get(ME).json()["username"] == "alice"


def test_the_word_is_token_and_bearer_is_refused_saying_so(api: APIClient, alice: User) -> None:
    """The contract's header is ``Authorization: Token <token>``. A good access token sent as
    ``Bearer`` (OAuth's word, a habit of clients) is refused, with a detail that names the word
    to use, and a Token-shaped challenge."""
    pair = sign_in(api)
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {pair['access']}")

    for response in (bearer.get(ME), bearer.post(LOGOUT)):
        assert response.status_code == 401, response.content
        body = response.json()
        assert body["code"] == "not_authenticated"
        assert "Authorization: Token" in body["detail"] and "not Bearer" in body["detail"]
        assert response["WWW-Authenticate"] == "Token"

    # Refused, the token did nothing (logout did not end the session) and still works as Token.
    assert client_with(pair["access"]).get(ME).status_code == 200


def test_lifetimes_follow_the_settings(api: APIClient, alice: User, settings: Settings) -> None:
    settings.UNO_ACCESS_TOKEN_SECONDS = 1
    settings.UNO_REFRESH_TOKEN_DAYS = 2

    pair = sign_in(api)

    started = Session.objects.get(pk=pair["session"]).created_at
    access_expires = datetime.fromisoformat(pair["access_expires_at"])
    refresh_expires = datetime.fromisoformat(pair["refresh_expires_at"])
    assert access_expires - started == timedelta(seconds=1)
    assert refresh_expires - started == timedelta(days=2)


def test_an_expired_access_token_answers_token_expired_everywhere(
    api: APIClient, alice: User
) -> None:
    pair = sign_in(api)
    expire_access(pair)
    client = client_with(pair["access"])

    for method, path in [("get", ME), ("get", "/api/v1/games/"), ("post", TICKET)]:
        response = getattr(client, method)(path)
        assert response.status_code == 401, (path, response.content)
        assert response.json()["code"] == "token_expired"
        assert response["WWW-Authenticate"] == "Token"
    # The stream too (its own authentication classes).
    stream = client.get("/api/v1/players/me/stream/", HTTP_ACCEPT="text/event-stream")
    assert stream.status_code == 401 and stream.json()["code"] == "token_expired"


def test_refresh_rotates_the_pair(api: APIClient, alice: User) -> None:
    first = sign_in(api)
    expire_access(first)

    response = refresh(api, first["refresh"])

    assert response.status_code == 200, response.content
    second = response.json()
    assert second["session"] == first["session"]
    assert second["access"] != first["access"] and second["refresh"] != first["refresh"]
    assert second["token"] == second["access"]
    assert client_with(second["access"]).get(ME).status_code == 200
    # The refreshed-from pair's refresh token is spent; the new one rotates again.
    third = refresh(api, second["refresh"])
    assert third.status_code == 200
    assert client_with(third.json()["access"]).get(ME).status_code == 200


def test_an_access_token_issued_before_a_refresh_lives_until_its_expiry(
    api: APIClient, alice: User
) -> None:
    first = sign_in(api)

    assert refresh(api, first["refresh"]).status_code == 200

    # Documented (docs/api.md): calls already under way with it still succeed.
    assert client_with(first["access"]).get(ME).status_code == 200


def test_a_refresh_token_used_twice_ends_the_whole_session(api: APIClient, alice: User) -> None:
    first = sign_in(api)
    other = sign_in(api)  # another device: untouched
    second = refresh(api, first["refresh"]).json()
    third = refresh(api, second["refresh"]).json()

    reused = refresh(api, first["refresh"])

    assert reused.status_code == 401
    assert reused.json()["code"] == "token_reused"
    assert reused["WWW-Authenticate"] == "Token"
    for access in (first["access"], second["access"], third["access"]):
        response = client_with(access).get(ME)
        assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    for spent in (third["refresh"], first["refresh"]):
        again = refresh(api, spent)
        assert again.status_code == 401 and again.json()["code"] == "token_reused"
    session = Session.objects.get(pk=first["session"])
    assert session.ended_at is not None and session.ended_why == Session.ENDED_REUSED
    assert client_with(other["access"]).get(ME).status_code == 200
    assert [row["id"] for row in client_with(other["access"]).get(SESSIONS).json()] == [
        other["session"]
    ]


def test_refresh_refuses_unknown_expired_and_malformed_tokens(api: APIClient, alice: User) -> None:
    pair = sign_in(api)
    RefreshToken.objects.filter(digest=sessions.digest(pair["refresh"])).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )

    for token in (pair["refresh"], "urt_nothing-like-it", pair["access"]):
        response = refresh(api, token)
        assert response.status_code == 401, token
        assert response.json()["code"] == "not_authenticated"
    for body in ({}, {"refresh": 7}, {"refresh": "x" * 200}, {"refresh": "a", "more": 1}):
        response = api.post(REFRESH, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["code"] == "invalid"


def test_refresh_of_an_inactive_player_is_refused(api: APIClient, alice: User) -> None:
    pair = sign_in(api)
    User.objects.filter(pk=alice.pk).update(is_active=False)

    assert refresh(api, pair["refresh"]).json()["code"] == "not_authenticated"
    assert client_with(pair["access"]).get(ME).status_code == 401


def test_the_session_list(api: APIClient, alice: User, make_player: MakeUser) -> None:
    phone = sign_in(api, HTTP_USER_AGENT=UA, REMOTE_ADDR="203.0.113.77")
    laptop = sign_in(api, HTTP_USER_AGENT="Firefox", REMOTE_ADDR="2001:db8:1:2::9")
    make_player("bob")
    sign_in(api, "bob")  # not alice's

    listed = client_with(phone["access"]).get(SESSIONS)

    assert listed.status_code == 200
    rows = {row["id"]: row for row in listed.json()}
    assert set(rows) == {phone["session"], laptop["session"]}
    mine = rows[phone["session"]]
    assert set(mine) == {"id", "created", "last_used", "user_agent", "address", "current"}
    assert mine["current"] is True and rows[laptop["session"]]["current"] is False
    assert mine["user_agent"] == UA
    assert mine["address"] == "203.0.113.0/24"
    assert rows[laptop["session"]]["address"] == "2001:db8:1::/48"
    assert mine["created"] == mine["last_used"]
    # Last used moves with use (at most once a minute) and with a refresh.
    Session.objects.filter(pk=phone["session"]).update(
        last_used_at=timezone.now() - timedelta(hours=2)
    )
    client_with(phone["access"]).get(ME)
    used = Session.objects.get(pk=phone["session"]).last_used_at
    assert timezone.now() - used < timedelta(seconds=30)
    assert client_with(phone["access"]).get(SESSIONS).json()[0]["id"] == phone["session"]


def test_addresses_are_truncated() -> None:
    assert truncate_address("198.51.100.200") == "198.51.100.0/24"
    assert truncate_address("::ffff:198.51.100.200") == "198.51.100.0/24"
    assert truncate_address("2001:db8:abcd:12::1") == "2001:db8:abcd::/48"
    assert truncate_address("not an address") == ""
    assert truncate_address(None) == ""
    assert authentication.ACCESS_PREFIX == sessions.ACCESS_PREFIX


def test_ending_a_session_stops_its_tokens(
    api: APIClient, alice: User, make_player: MakeUser
) -> None:
    phone = sign_in(api)
    laptop = sign_in(api)
    make_player("bob")
    bob = sign_in(api, "bob")
    me = client_with(laptop["access"])

    # Another player's session is not found, and stays.
    other = me.delete(f"{SESSIONS}{bob['session']}/")
    assert other.status_code == 404 and other.json()["code"] == "not_found"
    assert client_with(bob["access"]).get(ME).status_code == 200
    assert me.delete(f"{SESSIONS}not-a-uuid/").status_code == 404

    ended = me.delete(f"{SESSIONS}{phone['session'].upper()}/")  # any case: one id

    assert ended.status_code == 204
    assert client_with(phone["access"]).get(ME).status_code == 401
    gone = refresh(api, phone["refresh"])
    assert gone.status_code == 401 and gone.json()["code"] == "not_authenticated"
    assert [row["id"] for row in me.get(SESSIONS).json()] == [laptop["session"]]
    assert me.delete(f"{SESSIONS}{phone['session']}/").status_code == 404  # ended already


def test_logout_ends_only_the_callers_session(api: APIClient, alice: User) -> None:
    phone = sign_in(api)
    laptop = sign_in(api)

    assert client_with(phone["access"]).post(LOGOUT).status_code == 204

    assert client_with(phone["access"]).get(ME).status_code == 401
    assert refresh(api, phone["refresh"]).status_code == 401
    assert client_with(laptop["access"]).get(ME).status_code == 200
    session = Session.objects.get(pk=phone["session"])
    assert session.ended_why == Session.ENDED_LOGOUT


def test_an_expired_access_token_signs_out_of_its_session_and_does_nothing_else(
    api: APIClient, alice: User
) -> None:
    """A phone whose access token expired could not sign out (401 ``token_expired``) without
    trading its refresh token for a pair first. Now the logout takes that token, while it is
    its live session's newest; every other call still refuses it, and an older token of a
    session refreshed since (a copy left somewhere) ends nothing."""
    phone, laptop = sign_in(api), sign_in(api)
    expire_access(phone)
    expired = client_with(phone["access"])
    refused = expired.get(ME)
    assert refused.status_code == 401 and refused.json()["code"] == "token_expired"

    assert expired.post(LOGOUT).status_code == 204

    session = Session.objects.get(pk=phone["session"])
    assert session.ended_at is not None and session.ended_why == Session.ENDED_LOGOUT
    assert refresh(api, phone["refresh"]).status_code == 401
    gone = expired.post(LOGOUT)  # ended: the token names no live session
    assert gone.status_code == 401 and gone.json()["code"] == "not_authenticated"
    assert client_with(laptop["access"]).get(ME).status_code == 200

    # A session refreshed since: its older access token, expired, ends nothing.
    tablet = sign_in(api)
    newer = refresh(api, tablet["refresh"]).json()
    expire_access(tablet)
    old = client_with(tablet["access"]).post(LOGOUT)
    assert old.status_code == 401 and old.json()["code"] == "token_expired"
    assert Session.objects.get(pk=tablet["session"]).ended_at is None
    assert client_with(newer["access"]).get(ME).status_code == 200


def test_the_refresh_token_signs_out_with_no_authorization(
    api: APIClient, alice: User, make_player: MakeUser
) -> None:
    """The refresh token in the body ends its session (it can do more already: make pairs).
    Again it answers 204 (ended already); a spent one ends the session as a reuse would; an
    unknown one, or another player's beside the caller's token, is 401 and ends nothing."""
    phone, laptop = sign_in(api), sign_in(api)

    assert APIClient().post(LOGOUT, {"refresh": phone["refresh"]}, format="json").status_code == 204

    session = Session.objects.get(pk=phone["session"])
    assert session.ended_at is not None and session.ended_why == Session.ENDED_LOGOUT
    assert client_with(phone["access"]).get(ME).status_code == 401
    assert refresh(api, phone["refresh"]).json()["code"] == "not_authenticated"
    again = APIClient().post(LOGOUT, {"refresh": phone["refresh"]}, format="json")
    assert again.status_code == 204
    for body, status, code in (
        ({"refresh": "urt_nothing"}, 401, "not_authenticated"),
        ({}, 401, "not_authenticated"),
        ({"refresh": laptop["refresh"], "all": True}, 400, "invalid"),
    ):
        answer = APIClient().post(LOGOUT, body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.content
    # Someone else's refresh token beside one's own access token ends neither session.
    make_player("bea")
    bea = sign_in(api, "bea")
    mixed = client_with(bea["access"]).post(LOGOUT, {"refresh": laptop["refresh"]}, format="json")
    assert mixed.status_code == 401 and mixed.json()["code"] == "not_authenticated"
    assert client_with(laptop["access"]).get(ME).status_code == 200
    assert client_with(bea["access"]).get(ME).status_code == 200

    # A refresh token traded before: its session ends as a reuse (its new pair with it).
    new = refresh(api, laptop["refresh"]).json()
    assert (
        APIClient().post(LOGOUT, {"refresh": laptop["refresh"]}, format="json").status_code == 204
    )
    assert Session.objects.get(pk=laptop["session"]).ended_why == Session.ENDED_REUSED
    assert client_with(new["access"]).get(ME).status_code == 401


def test_legacy_tokens_work_while_the_setting_is_on(alice: User, settings: Settings) -> None:
    client = client_with(legacy_token_of(alice))

    settings.UNO_LEGACY_TOKENS = True
    assert client.get(ME).status_code == 200
    listed = client.get(SESSIONS)
    assert listed.status_code == 200 and listed.json() == []

    settings.UNO_LEGACY_TOKENS = False
    refused = client.get(ME)
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"


def test_legacy_logout_deletes_the_old_key(alice: User) -> None:
    client = client_with(legacy_token_of(alice))

    assert client.post(LOGOUT).status_code == 204

    assert client.get(ME).status_code == 401


def test_registration_and_guests_answer_a_pair(api: APIClient) -> None:
    registered = api.post(
        "/api/v1/players/", {"username": "newcomer", "password": PASSWORD}, format="json"
    ).json()
    guest = api.post("/api/v1/players/guest/").json()

    for body in (registered, guest):
        assert body["token"] == body["access"]
        assert client_with(body["access"]).get(ME).json()["id"] == body["id"]
        assert refresh(api, body["refresh"]).status_code == 200


def test_tokens_are_stored_hashed(api: APIClient, alice: User) -> None:
    pair = sign_in(api)
    second = refresh(api, pair["refresh"]).json()
    secrets = [pair["access"], pair["refresh"], second["access"], second["refresh"]]
    secrets += [secret.split("_", 1)[1] for secret in secrets]

    with connection.cursor() as cursor:
        dumped = []
        for table in ("players_session", "players_accesstoken", "players_refreshtoken"):
            cursor.execute(f"SELECT * FROM {table}")
            dumped += [str(value) for row in cursor.fetchall() for value in row]
    assert dumped
    assert not any(secret in value for secret in secrets for value in dumped)
    assert AccessToken.objects.filter(digest=sessions.digest(second["access"])).exists()


def test_a_stream_ticket_made_after_a_refresh_opens_the_stream(api: APIClient, alice: User) -> None:
    pair = sign_in(api)
    expire_access(pair)
    fresh = refresh(api, pair["refresh"]).json()

    ticket = client_with(fresh["access"]).post(TICKET)

    assert ticket.status_code == 200, ticket.content
    opened = APIClient().get(
        "/api/v1/players/me/stream/",
        {"ticket": ticket.json()["ticket"]},
        HTTP_ACCEPT="text/event-stream",
    )
    assert opened.status_code == 200
    assert opened["Content-Type"].startswith("text/event-stream")
    opened.close()


def test_webhooks_and_push_stay_with_the_player_across_refreshes(
    api: APIClient, alice: User, settings: Settings
) -> None:
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = True
    settings.UNO_VAPID_PRIVATE_KEY, _ = generate_private_key()
    pair = sign_in(api)
    made = client_with(pair["access"]).post(
        WEBHOOKS, {"url": "http://127.0.0.1:9/hook", "kinds": ["your_turn"]}, format="json"
    )
    assert made.status_code == 201, made.content
    browser = Browser.new("http://127.0.0.1:9/push/abc")
    pushed = client_with(pair["access"]).post(
        "/api/v1/push/subscriptions/", browser.subscription(), format="json"
    )
    assert pushed.status_code == 201, pushed.content

    expire_access(pair)
    fresh = refresh(api, pair["refresh"]).json()

    client = client_with(fresh["access"])
    assert [hook["id"] for hook in client.get(WEBHOOKS).json()["results"]] == [made.json()["id"]]
    gone = client.delete(f"/api/v1/push/subscriptions/{pushed.json()['id']}/")
    assert gone.status_code == 204
