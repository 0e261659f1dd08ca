"""The Django admin under attack (issue 11): its login form is throttled like the token endpoint,
and it shows staff no card the game view would hide from them until the game is finished."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from tests.ops.conftest import PASSWORD, MakePlayer

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
SetRates = Callable[..., None]


def log_in(client: Client, username: str, password: str) -> int:
    answer = client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"})
    return answer.status_code


def test_the_admin_login_is_throttled(throttle_rates: SetRates, make_player: MakePlayer) -> None:
    """Forty wrong passwords for a staff account were all answered, then the right one let in."""
    throttle_rates(admin_login="3/minute")
    boss = make_player("boss", staff=True)
    guesser = Client()

    wrong = [log_in(guesser, boss.user.username, f"guess {i}") for i in range(3)]
    right = guesser.post(LOGIN, {"username": boss.user.username, "password": PASSWORD})
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")

    assert wrong == [200, 200, 200], "the form answers wrong passwords, without a session"
    assert right.status_code == 429, right.content
    body = right.json()
    assert body["code"] == "throttled" and body["detail"]
    assert int(right["Retry-After"]) > 0
    assert guesser.get("/admin/").status_code == 302, "still not signed in"
    assert guesser.get(LOGIN).status_code == 200, "showing the form is not an attempt"
    assert log_in(elsewhere, boss.user.username, PASSWORD) == 302, (
        "another address has its own count"
    )
