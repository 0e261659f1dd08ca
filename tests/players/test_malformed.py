"""Malformed bodies get 400 with code ``invalid``, never a 500."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, MakeUser

pytestmark = pytest.mark.django_db

ENDPOINTS = ["/api/v1/players/", "/api/v1/auth/token/"]

BAD_BODIES: list[Any] = [
    {},
    {"username": "alice"},
    {"password": PASSWORD},
    {"username": None, "password": PASSWORD},
    {"username": "alice", "password": None},
    {"username": 123, "password": PASSWORD},
    {"username": "alice", "password": 12345678901234},
    {"username": True, "password": PASSWORD},
    {"username": ["alice"], "password": PASSWORD},
    {"username": {"name": "alice"}, "password": PASSWORD},
    {"username": "alice", "password": [PASSWORD]},
    {"username": "alice", "password": "x" * 5000},
    {"username": "nul\u0000", "password": PASSWORD},
    [],
    ["alice", PASSWORD],
    "alice",
    42,
    None,
]


@pytest.fixture(autouse=True)
def _alice(make_player: MakeUser) -> None:
    make_player("alice")


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("body", BAD_BODIES)
def test_malformed_json_bodies(api: APIClient, url: str, body: Any) -> None:
    response = api.post(url, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"]


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("raw", [b"", b"{", b"not json", b'{"username": "alice",}', b"\xff\xfe"])
def test_bodies_that_are_not_json(api: APIClient, url: str, raw: bytes) -> None:
    # The test client sends bytes as they are (its stub says str).
    response = api.generic("POST", url, cast(str, raw), content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_missing_fields_are_named(api: APIClient) -> None:
    response = api.post("/api/v1/players/", {}, format="json")

    body = response.json()
    assert set(body["errors"]) == {"username", "password"}
    assert User.objects.count() == 1


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_body_that_is_not_json_at_all_is_refused_by_media_type(api: APIClient, url: str) -> None:
    response = api.generic("POST", url, "alice:secret", content_type="text/plain")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
