"""Every error code of the contract, produced once through HTTP, and refusals append nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import DECK
from games.models import Game
from tests.support.players import Player
from tests.support.table import (
    GAMES,
    Table,
    create_game,
    deck_table,
    game_url,
    log_size,
    ok,
    refused,
    start_table,
)

pytestmark = pytest.mark.django_db

# Seat 0 (staff) holds a wild, a wild-draw4 and no green; seat 1 has no red. The starter is red-5.
HANDS = [
    ["red-3", "blue-5", "wild", "wild-draw4", "green-7", "yellow-1", "red-skip"],
    ["blue-3", "green-2", "yellow-4", "blue-9", "green-9", "yellow-9", "blue-1"],
]


@pytest.fixture
def table(staff: Player, players: list[Player]) -> Table:
    return deck_table(staff, players[1:2], HANDS, "red-5", turn_timeout=3600)


def state_of(game_id: str) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, game.status, game.current_seat, *log_size(game_id)


REFUSED_ACTIONS = [
    # 400 invalid: malformed actions
    pytest.param(0, {"action": "play", "card": "purple-3"}, 400, "invalid", id="unknown-card"),
    pytest.param(
        0, {"action": "play", "card": "wild", "color": "pink"}, 400, "invalid", id="color"
    ),
    pytest.param(0, {"action": "draw", "colour": "red"}, 400, "invalid", id="unknown-field"),
    pytest.param(0, {"action": "dance"}, 400, "invalid", id="unknown-action"),
    pytest.param(0, {"card": "red-3"}, 400, "invalid", id="no-action"),
    pytest.param(0, {"action": "play"}, 400, "invalid", id="play-without-card"),
    pytest.param(0, {"action": "play", "card": ["red-3"]}, 400, "invalid", id="card-not-a-string"),
    pytest.param(0, {"action": "play", "card": "red-3", "uno": "maybe"}, 400, "invalid", id="uno"),
    pytest.param(0, {"action": "catch", "target": True}, 400, "invalid", id="bool-target"),
    pytest.param(0, {"action": "draw", "expected_version": -1}, 400, "invalid", id="version"),
    pytest.param(
        0, {"action": "play", "cards": ["red-3", "red-3"]}, 400, "invalid", id="multi-play-off"
    ),
    # 409: the state of the game does not allow it
    pytest.param(1, {"action": "play", "card": "blue-9"}, 409, "not_your_turn", id="turn"),
    pytest.param(1, {"action": "draw"}, 409, "not_your_turn", id="draw-out-of-turn"),
    # 422: moves the rules forbid
    pytest.param(0, {"action": "play", "card": "blue-9"}, 422, "card_not_in_hand", id="not-held"),
    pytest.param(0, {"action": "play", "card": "green-7"}, 422, "illegal_card", id="illegal"),
    pytest.param(0, {"action": "play", "card": "wild"}, 422, "color_required", id="no-color"),
    pytest.param(0, {"action": "challenge"}, 422, "nothing_to_challenge", id="challenge"),
    pytest.param(0, {"action": "accept"}, 422, "nothing_to_challenge", id="accept"),
    pytest.param(0, {"action": "pass"}, 422, "nothing_to_pass", id="pass"),
    pytest.param(0, {"action": "catch", "target": 1}, 422, "nothing_to_catch", id="catch"),
]


@pytest.mark.parametrize(("seat", "body", "status", "code"), REFUSED_ACTIONS)
def test_a_refused_action_changes_nothing(
    table: Table, seat: int, body: dict[str, Any], status: int, code: str
) -> None:
    before = state_of(table.id)

    refused(table.post(seat, body), status, code)

    assert state_of(table.id) == before
    # And the game still takes a legal action afterwards.
    assert table.act(0, "play", card="red-3")["version"] == before[0] + 2


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"action": "draw"', id="truncated-json"),
        pytest.param("[1, 2]", id="list"),
        pytest.param('"draw"', id="string"),
        pytest.param("42", id="number"),
        pytest.param("null", id="null"),
        pytest.param("\xff\xfe", id="not-utf8"),
    ],
)
def test_a_malformed_body_is_invalid(table: Table, raw: str) -> None:
    before = state_of(table.id)

    response = table.client(0).post(
        table.url("actions"), raw.encode("latin-1"), content_type="application/json"
    )

    refused(response, 400, "invalid")
    assert state_of(table.id) == before


def test_version_conflict(table: Table) -> None:
    version = table.view(0)["version"]
    table.act(0, "play", card="red-3", expected_version=version)
    before = state_of(table.id)

    body = refused(
        table.post(1, {"action": "draw", "expected_version": version}), 409, "version_conflict"
    )

    assert str(version + 2) in body["detail"]
    assert state_of(table.id) == before
    assert table.act(1, "draw", expected_version=version + 2)["version"] > version + 2


def test_not_a_player(table: Table, outsider: Player) -> None:
    before = state_of(table.id)

    refused(
        outsider.client.post(table.url("actions"), {"action": "draw"}, format="json"),
        403,
        "not_a_player",
    )
    refused(outsider.client.post(table.url("resign")), 403, "not_a_player")
    refused(outsider.client.post(table.url("leave")), 403, "not_a_player")

    assert state_of(table.id) == before


def test_game_not_active_while_waiting(players: list[Player]) -> None:
    game = create_game(players[0], max_players=3)
    ok(players[1].client.post(game_url(game["id"], "join")))

    for player in players[:2]:
        response = player.client.post(
            game_url(game["id"], "actions"), {"action": "draw"}, format="json"
        )
        refused(response, 409, "game_not_active")
    refused(players[0].client.post(game_url(game["id"], "resign")), 409, "game_not_active")
    assert log_size(game["id"]) == (0, 0)


def test_game_not_active_once_finished(players: list[Player]) -> None:
    table = start_table(players[:2])
    finished = ok(table.client(1).post(table.url("resign")))
    assert finished["status"] == "finished" and finished["winner_seat"] == 0
    before = state_of(table.id)

    refused(table.post(0, {"action": "draw"}), 409, "game_not_active")
    refused(table.post(1, {"action": "draw"}), 409, "game_not_active")
    refused(table.client(0).post(table.url("resign")), 409, "game_not_active")

    assert state_of(table.id) == before


def test_game_full(table: Table, outsider: Player) -> None:
    before = state_of(table.id)

    refused(outsider.client.post(table.url("join")), 409, "game_full")

    assert state_of(table.id) == before


def test_joining_a_started_game_with_free_seats(players: list[Player]) -> None:
    game = create_game(players[0], max_players=3)
    ok(players[1].client.post(game_url(game["id"], "join")))
    ok(players[0].client.post(game_url(game["id"], "start")))

    refused(players[2].client.post(game_url(game["id"], "join")), 409, "game_not_waiting")


def test_only_staff_may_give_a_deck(players: list[Player], staff: Player) -> None:
    response = players[0].client.post(GAMES, {"deck": list(DECK)}, format="json")
    refused(response, 403, "permission_denied")
    assert not Game.objects.exists()

    ok(staff.client.post(GAMES, {"deck": list(DECK)}, format="json"), 201)


def test_a_bad_deck_is_invalid(staff: Player) -> None:
    short = staff.client.post(GAMES, {"deck": list(DECK)[:-1]}, format="json")
    refused(short, 400, "invalid")
    unknown = staff.client.post(GAMES, {"deck": [*list(DECK)[:-1], "purple-1"]}, format="json")
    refused(unknown, 400, "invalid")
    wrong = staff.client.post(GAMES, {"deck": ["red-1"] * 108}, format="json")
    refused(wrong, 400, "invalid_deck")
    assert not Game.objects.exists()


def test_only_the_host_starts(players: list[Player]) -> None:
    game = create_game(players[0], max_players=3)
    ok(players[1].client.post(game_url(game["id"], "join")))

    refused(players[1].client.post(game_url(game["id"], "start")), 403, "permission_denied")

    assert Game.objects.get(pk=game["id"]).status == "waiting"


@pytest.mark.parametrize(
    "body",
    [
        {"max_players": 1},
        {"max_players": 11},
        {"max_players": "four"},
        {"turn_timeout": 0},
        {"turn_timeout": 2_592_001},
        {"target_score": 0},
        {"seed": -1},
        {"seed": 2**63},
        {"rules": {"stacking": "perhaps"}},
        {"rules": {"no_such_rule": True}},
        {"rules": ["stacking"]},
        {"rules": {"uno_penalty": 99}},
        {"colour": "red"},
    ],
)
def test_bad_settings_are_invalid(players: list[Player], body: dict[str, Any]) -> None:
    response = players[0].client.post(GAMES, body, format="json")

    refused(response, 400, "invalid")
    assert not Game.objects.exists()


def test_inconsistent_rules_are_refused(players: list[Player]) -> None:
    response = players[0].client.post(GAMES, {"rules": {"reverse_bounce": True}}, format="json")

    body = refused(response, 400, "invalid_rules")
    assert "stacking" in body["detail"]


def test_non_object_bodies_elsewhere_are_invalid(players: list[Player]) -> None:
    for raw in ("[]", "7", '"x"'):
        response = players[0].client.post(GAMES, raw, content_type="application/json")
        refused(response, 400, "invalid")


@pytest.mark.parametrize("game_id", [str(uuid.uuid4()), "not-a-uuid", "123", "0" * 40])
def test_not_found(players: list[Player], game_id: str) -> None:
    client = players[0].client
    refused(client.get(game_url(game_id)), 404, "not_found")
    for suffix in ("join", "leave", "start", "resign"):
        refused(client.post(game_url(game_id, suffix)), 404, "not_found")
    refused(
        client.post(game_url(game_id, "actions"), {"action": "draw"}, format="json"),
        404,
        "not_found",
    )
    refused(client.get(game_url(game_id, "events")), 404, "not_found")
    refused(client.get(game_url(game_id, "replay"), {"at": 1}), 404, "not_found")


@pytest.mark.parametrize("header", [None, "Token nope", "Token ", "Bearer abc", "Token a b"])
def test_not_authenticated(table: Table, header: str | None) -> None:
    client = APIClient()
    if header is not None:
        client.credentials(HTTP_AUTHORIZATION=header)
    before = state_of(table.id)

    refused(client.get(GAMES), 401, "not_authenticated")
    refused(client.post(GAMES, {}, format="json"), 401, "not_authenticated")
    refused(client.get(table.url()), 401, "not_authenticated")
    refused(
        client.post(table.url("actions"), {"action": "draw"}, format="json"),
        401,
        "not_authenticated",
    )
    refused(client.get(table.url("events")), 401, "not_authenticated")
    refused(client.post(table.url("join")), 401, "not_authenticated")

    assert state_of(table.id) == before


def test_idempotency_key_reused(table: Table) -> None:
    key = {"HTTP_IDEMPOTENCY_KEY": "move-1"}
    ok(table.post(0, {"action": "play", "card": "red-3"}, **key))
    before = state_of(table.id)

    refused(
        table.post(0, {"action": "play", "card": "red-skip"}, **key), 422, "idempotency_key_reused"
    )

    assert state_of(table.id) == before
