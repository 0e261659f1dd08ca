"""Failed sign-ins are limited per username, from whatever address they come (a password guessed
by many machines at once), besides the count per address: past the limit the username is refused
with 429 ``throttled`` and ``Retry-After``, its right password too, while every other account
signs in as before; successes are not counted. Through HTTP, each guess from an address of its
own (``REMOTE_ADDR``: ``NUM_PROXIES`` is 0, so the socket's address is the client's)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, MakeUser

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
_hosts = itertools.count(1)


@pytest.fixture(autouse=True)
def _limits(settings: Settings) -> Iterator[None]:
    """3 failures in 15 minutes per username; the per-address count as in production, which the
    guesses, each from an address of its own, never reach. A clean count."""
    rates = {"signin_failures": "3/15m", "token": "30/minute", "admin_login": "10/minute"}
    settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, **rates}
    cache.clear()
    yield
    cache.clear()


def from_elsewhere(username: str, password: str) -> Any:
    """A sign-in from an address no request came from before."""
    client = APIClient(REMOTE_ADDR=f"198.51.100.{next(_hosts)}")
    return client.post(TOKEN, {"username": username, "password": password}, format="json")


def assert_throttled(response: Any) -> int:
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "throttled" and response.json()["detail"]
    wait = int(response["Retry-After"])
    assert 0 < wait <= 15 * 60
    return wait


def test_failures_for_one_username_from_many_addresses_are_refused(
    make_player: MakeUser,
) -> None:
    make_player("alice")
    make_player("bob")
    guesses = [from_elsewhere("alice", f"guess-{i}") for i in range(3)]
    assert {g.json()["code"] for g in guesses} == {"invalid_credentials"}

    assert_throttled(from_elsewhere("alice", "guess-4"))
    # The right password too, and the name in another case (one account, ignoring case): a
    # refusal that let it through would tell the guesser they found it.
    assert_throttled(from_elsewhere("alice", PASSWORD))
    assert_throttled(from_elsewhere("ALICE", PASSWORD))
    # Everyone else signs in, from anywhere.
    assert from_elsewhere("bob", PASSWORD).status_code == 200


def test_a_name_no_account_has_is_limited_alike(make_player: MakeUser) -> None:
    """The limit tells nobody which names are accounts."""
    make_player("alice")
    for name in ("alice", "nobody"):
        answers = [from_elsewhere(name, f"guess-{i}").status_code for i in range(4)]
        assert answers == [400, 400, 400, 429]


def test_successful_sign_ins_are_not_counted(make_player: MakeUser) -> None:
    make_player("alice")
    assert [from_elsewhere("alice", PASSWORD).status_code for _ in range(5)] == [200] * 5
    # Two mistakes between sign-ins leave room for one more, not less.
    assert [from_elsewhere("alice", "typo").status_code for _ in range(2)] == [400, 400]
    assert from_elsewhere("alice", PASSWORD).status_code == 200
    assert from_elsewhere("alice", "typo").status_code == 400
    assert_throttled(from_elsewhere("alice", PASSWORD))


def test_a_refused_body_is_not_a_failure(make_player: MakeUser) -> None:
    make_player("alice")
    for _ in range(4):
        client = APIClient(REMOTE_ADDR=f"198.51.100.{next(_hosts)}")
        assert client.post(TOKEN, {"username": "alice"}, format="json").status_code == 400
    assert from_elsewhere("alice", PASSWORD).status_code == 200


def test_the_limit_can_be_turned_off(make_player: MakeUser, settings: Settings) -> None:
    settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, "signin_failures": None}
    make_player("alice")
    assert [from_elsewhere("alice", "guess").status_code for _ in range(5)] == [400] * 5
    assert from_elsewhere("alice", PASSWORD).status_code == 200


def test_the_admin_login_counts_the_same_failures(make_player: MakeUser) -> None:
    """A staff account's password guessed on the admin's form is a guess at its sign-in."""
    make_player("boss", is_staff=True)
    for i in range(2):
        form = Client(REMOTE_ADDR=f"198.51.100.{next(_hosts)}")
        answer = form.post("/admin/login/", {"username": "boss", "password": f"guess-{i}"})
        assert answer.status_code == 200  # the form again, with its error
    assert from_elsewhere("boss", "guess-3").status_code == 400
    form = Client(REMOTE_ADDR=f"198.51.100.{next(_hosts)}")
    refused = form.post("/admin/login/", {"username": "BOSS", "password": PASSWORD})
    assert_throttled(refused)
    assert_throttled(from_elsewhere("boss", PASSWORD))


def test_the_admin_login_that_succeeds_is_not_counted(make_player: MakeUser) -> None:
    make_player("boss", is_staff=True)
    for _ in range(4):
        form = Client(REMOTE_ADDR=f"198.51.100.{next(_hosts)}")
        answer = form.post("/admin/login/", {"username": "boss", "password": PASSWORD})
        assert answer.status_code == 302
    assert from_elsewhere("boss", PASSWORD).status_code == 200
