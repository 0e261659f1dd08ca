"""Web Push against a small push service on loopback: it decrypts what arrives with the test
browser's private keys (RFC 8291, ``http_ece``) and checks the VAPID token (RFC 8292) against
the key the API publishes: the payload is the notification."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings

from notifications.models import Notification, PushSubscription
from service import play
from tests.support.notifications import Receiver
from tests.support.players import client_for
from tests.support.push import SUBSCRIPTIONS, Browser, b64url, subscribe, unb64url
from tests.support.timeouts import started_game

KEY = "/api/v1/push/key/"


def check_vapid(authorization: str, public_key: str, audience: str) -> dict[str, Any]:
    """The claims of a valid ``vapid t=<JWT>,k=<key>`` header signed by ``public_key``."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    params = dict(part.split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key
    header, claims, signature = params["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID token's signature does not verify") from None
    decoded = dict(json.loads(unb64url(claims)))
    assert decoded["aud"] == audience
    assert time.time() < decoded["exp"] <= time.time() + 24 * 3600
    assert decoded["sub"].startswith(("mailto:", "https:"))
    return decoded


@pytest.mark.django_db(transaction=True)
def test_a_turn_is_pushed_encrypted_and_signed_and_a_gone_subscription_is_deleted(
    users: list[User], receiver: Receiver, vapid: str
) -> None:
    public_key = client_for(users[0]).get(KEY).json()["public_key"]
    assert public_key == vapid
    base = receiver.url.rsplit("/", 1)[0]
    browsers = [Browser.new(f"{base}/push/{i}") for i in range(2)]
    for user, browser in zip(users[:2], browsers, strict=True):
        subscribe(user, browser)

    game = started_game(users[:2], turn_timeout=3600)

    actor = game.current_seat
    assert actor is not None
    (turn,) = Notification.objects.filter(kind="your_turn", game=game)
    (request,) = receiver.received(1)  # joined and started are not pushed; the turn is
    assert request.path == f"/push/{actor}"
    assert request.headers["content-encoding"] == "aes128gcm" and int(request.headers["ttl"]) > 0
    check_vapid(request.headers["authorization"], public_key, base)
    assert browsers[actor].decrypt(request.body) == {
        "id": turn.pk,
        "kind": "your_turn",
        "game": str(game.pk),
        "at": turn.at.isoformat(),
        "read": False,
        "data": turn.data,
    }
    with pytest.raises(Exception):  # noqa: B017  # another browser cannot read it
        browsers[1 - actor].decrypt(request.body)

    receiver.otherwise = 410  # both browsers unsubscribed meanwhile
    play.game_resign(player=users[actor], game_id=game.pk)

    finished = receiver.received(3)[1:]
    assert sorted(r.path for r in finished) == ["/push/0", "/push/1"]
    for r in finished:
        assert browsers[int(r.path[-1])].decrypt(r.body)["kind"] == "game_finished"
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_without_a_vapid_key_push_is_not_offered(users: list[User], settings: Settings) -> None:
    settings.UNO_VAPID_PRIVATE_KEY = ""
    client = client_for(users[0])
    browser = Browser.new("https://1.1.1.1/push/1")
    for answer in (
        client.get(KEY),
        client.post(SUBSCRIPTIONS, browser.subscription(), format="json"),
    ):
        assert answer.status_code == 404 and answer.json()["code"] == "push_not_configured"
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_a_subscription_is_kept_once_per_endpoint_and_deleted_by_its_owner(
    users: list[User], vapid: str
) -> None:
    browser = Browser.new("https://1.1.1.1/push/abc")
    first = subscribe(users[0], browser)
    assert subscribe(users[0], browser) == first
    assert subscribe(users[1], browser) == first  # another player signed in on that browser
    assert PushSubscription.objects.get().player == users[1]

    url = f"{SUBSCRIPTIONS}{first}/"
    assert client_for(users[0]).delete(url).status_code == 404
    assert client_for(users[1]).delete(url).status_code == 204
    assert client_for(users[1]).delete(url).status_code == 404
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"keys": {"p256dh": "not-a-key", "auth": b64url(os.urandom(16))}},
        {"keys": {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": b64url(os.urandom(16))}},
        {"keys": {"auth": b64url(os.urandom(16))}},
        {"keys": None},
        {"endpoint": 5},
        {"expirationTime": "soon"},
        {"extra": 1},
    ],
)
def test_a_bad_subscription_is_refused(
    users: list[User], vapid: str, change: dict[str, Any]
) -> None:
    body = {**Browser.new("https://1.1.1.1/push/1").subscription(), **change}
    answer = client_for(users[0]).post(SUBSCRIPTIONS, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid", answer.json()
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_a_short_auth_secret_is_refused(users: list[User], vapid: str) -> None:
    body = Browser.new("https://1.1.1.1/push/1").subscription()
    body["keys"]["auth"] = b64url(os.urandom(8))
    answer = client_for(users[0]).post(SUBSCRIPTIONS, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


@pytest.mark.django_db
def test_a_push_endpoint_into_the_servers_network_is_refused(
    users: list[User], vapid: str, settings: Settings
) -> None:
    settings.UNO_WEBHOOKS_ALLOW_PRIVATE = False
    body = Browser.new("http://127.0.0.1:9/push/1").subscription()
    answer = client_for(users[0]).post(SUBSCRIPTIONS, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "url_refused"
