"""A malformed body's refusals by field, for machines (``fields``): each with its code and,
where it has one, the limit it broke, read from the field or the validator, so a client in
another language says "at most 10" without reading the English ``errors``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.engine.limits import PLAYERS, UNO_PENALTY
from games.models import Game
from notifications.limits import READ_IDS
from tests.support.players import Player
from tests.support.table import GAMES, refused

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/players/"


def checks(body: dict[str, Any], path: str) -> list[dict[str, Any]]:
    assert body["code"] == "invalid", body
    found = body["fields"][path]
    assert all(isinstance(check["message"], str) and check["message"] for check in found), found
    return list(found)


def codes(body: dict[str, Any], path: str) -> dict[str, Any]:
    return {check["code"]: check.get("limit") for check in checks(body, path)}


def test_a_password_refused_says_its_checks_and_the_least_length() -> None:
    body = refused(
        APIClient().post(REGISTER, {"username": "ana", "password": "123"}, format="json"),
        400,
        "invalid",
    )
    assert codes(body, "password") == {
        "password_too_short": 8,
        "password_too_common": None,
        "password_entirely_numeric": None,
    }
    assert body["errors"]["password"][0].startswith("This password is too short")
    assert not User.objects.filter(username="ana").exists()


@pytest.mark.parametrize(
    ("username", "expected"),
    [
        ("a" * 151, {"max_length": 150}),
        ("ana bea", {"invalid": None}),
        ("", {"blank": None}),
    ],
)
def test_a_username_refused_says_its_check(username: str, expected: dict[str, Any]) -> None:
    body = {"username": username, "password": "a long enough password"}
    answer = refused(APIClient().post(REGISTER, body, format="json"), 400, "invalid")
    assert codes(answer, "username") == expected
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        ({"max_players": PLAYERS.high + 1}, "max_players", {"max_value": PLAYERS.high}),
        ({"max_players": 1}, "max_players", {"min_value": PLAYERS.low}),
        ({"rules": {"uno_penalty": 99}}, "rules.uno_penalty", {"max_value": UNO_PENALTY.high}),
        ({"bots": ["basic"] * PLAYERS.high}, "bots", {"max_items": PLAYERS.high - 1}),
        ({"bots": ["basic", "genius"]}, "bots.1", {"invalid_choice": None}),
        ({"max_players": 2, "admin": True}, "admin", {"unknown_field": None}),
        ({"rules": {"stacking": True, "cheat": True}}, "rules.cheat", {"unknown_field": None}),
        ({"max_players": "4"}, "max_players", {"invalid": None}),
    ],
)
def test_a_game_refused_names_each_field_by_its_path(
    players: list[Player], body: dict[str, Any], path: str, expected: dict[str, Any]
) -> None:
    answer = refused(players[0].client.post(GAMES, body, format="json"), 400, "invalid")
    assert codes(answer, path) == expected
    assert not Game.objects.exists()


def test_a_list_too_long_says_how_many_it_takes(players: list[Player]) -> None:
    too_many = list(range(1, READ_IDS.high + 2))
    answer = refused(
        players[0].client.post("/api/v1/notifications/read/", {"ids": too_many}, format="json"),
        400,
        "invalid",
    )
    (check,) = checks(answer, "ids")
    assert check["code"] == "max_items" and check["limit"] == READ_IDS.high


def test_a_body_sent_where_none_is_taken_names_its_fields(players: list[Player]) -> None:
    game = players[0].client.post(GAMES, {"max_players": 2}, format="json").json()
    url = f"{GAMES}{game['id']}/leave/"
    answer = refused(players[0].client.post(url, {"seat": 2}, format="json"), 400, "invalid")
    assert codes(answer, "seat") == {"unknown_field": None}
    assert Game.objects.get(pk=game["id"]).status == "waiting"
