"""Stream tickets outlive no sign-in: one made with an old DRF key (``UNO_LEGACY_TOKENS``) opens
nothing once the key is gone, as one made under a session opens nothing once the session ended
(tests/streams/test_session_end.py). A password change made elsewhere, or the key's logout, left
a ticket made a moment before able to open the player's stream."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, client_with, legacy_token_of
from tests.support.table import ok, refused

pytestmark = pytest.mark.django_db

TICKET = "/api/v1/auth/stream-ticket/"
STREAM = "/api/v1/players/me/stream/"


def _opens(ticket: str) -> int:
    answer = APIClient().get(STREAM, {"ticket": ticket}, HTTP_ACCEPT="text/event-stream")
    return int(answer.status_code)


@pytest.fixture
def zed() -> User:
    return User.objects.create_user("zed", password=PASSWORD)


def test_an_old_keys_ticket_opens_while_the_key_signs_in(zed: User) -> None:
    phone = client_with(legacy_token_of(zed))
    assert _opens(ok(phone.post(TICKET))["ticket"]) == 200


def test_a_password_change_elsewhere_voids_the_old_keys_tickets(zed: User) -> None:
    phone = client_with(legacy_token_of(zed))  # the lost phone, and a ticket it made
    ticket = ok(phone.post(TICKET))["ticket"]
    laptop = APIClient()
    pair = ok(laptop.post("/api/v1/auth/token/", {"username": "zed", "password": PASSWORD}, "json"))
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {pair['access']}")
    change = {"current_password": PASSWORD, "new_password": "another long pass 42"}
    ok(laptop.post("/api/v1/players/me/password/", change, format="json"))
    refused(phone.get("/api/v1/players/me/"), 401, "not_authenticated")

    assert _opens(ticket) == 401
    ok(laptop.get("/api/v1/players/me/"))  # the session that changed it signs in still


def test_the_old_keys_logout_voids_its_tickets(zed: User) -> None:
    phone = client_with(legacy_token_of(zed))
    ticket = ok(phone.post(TICKET))["ticket"]
    assert phone.post("/api/v1/auth/logout/").status_code in (200, 204)
    assert _opens(ticket) == 401
