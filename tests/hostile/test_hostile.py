"""Hostile input over HTTP: every request here gets a clear 4xx with a ``code``, never a 5xx, and
changes nothing (the game's version, log, state and hands stay as they were).

Bodies too large, JSON nested 10,000 deep, absurd numbers in queries, unknown fields, wrong types,
other players' tokens, games that do not exist, replays past the end of the log. Inputs the
contract fuzzer (tests/fuzz) once found breaking something are kept here too, marked as such.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.support.table import GAMES, Lobby, Table

MB = 1024 * 1024


def refused(
    response: Any, status: int | tuple[int, ...], code: str | None = None
) -> dict[str, Any]:
    """A contract error: the expected 4xx, a JSON body with a ``code`` and a ``detail``."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert isinstance(body, dict), body
    assert isinstance(body.get("code"), str) and body["code"], body
    assert isinstance(body.get("detail"), str) and body["detail"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def raw_post(client: APIClient, url: str, payload: bytes | str, **extra: Any) -> Any:
    data = payload.encode() if isinstance(payload, str) else payload
    return client.generic("POST", url, data, content_type="application/json", **extra)  # type: ignore[arg-type]


# --- oversized bodies ---------------------------------------------------------------------------


def big_action(size: int) -> bytes:
    return json.dumps({"action": "draw", "padding": "x" * size}).encode()


@pytest.mark.parametrize("size", [2 * MB, 8 * MB])
def test_an_oversized_action_is_refused_whole(table: Table, size: int) -> None:
    before = table.snapshot()

    refused(
        raw_post(table.actor_client(), table.url("actions"), big_action(size)),
        413,
        "request_too_large",
    )

    assert table.snapshot() == before


def test_an_oversized_valid_action_is_refused_too(table: Table) -> None:
    """Whitespace is valid JSON: the size alone refuses the body, before any parsing."""
    before = table.snapshot()
    body = b'{"action": "draw"' + b" " * (2 * MB) + b"}"

    refused(raw_post(table.actor_client(), table.url("actions"), body), 413, "request_too_large")

    assert table.snapshot() == before


def test_oversized_bodies_elsewhere(table: Table) -> None:
    anonymous = APIClient()
    body = json.dumps({"username": "x" * (2 * MB), "password": "p" * 10}).encode()
    refused(raw_post(anonymous, "/api/v1/players/", body), 413, "request_too_large")
    refused(raw_post(anonymous, "/api/v1/auth/token/", body), 413, "request_too_large")
    create = json.dumps({"rules": {"x": "y" * (2 * MB)}}).encode()
    refused(raw_post(table.outsider_client(), GAMES, create), 413, "request_too_large")


def test_a_body_just_under_the_limit_is_parsed(table: Table) -> None:
    """The limit refuses size, not shape: a large body under it meets ordinary validation."""
    before = table.snapshot()

    refused(
        raw_post(table.actor_client(), table.url("actions"), big_action(100_000)), 400, "invalid"
    )

    assert table.snapshot() == before


# --- deeply nested JSON -------------------------------------------------------------------------

DEPTH = 10_000
NESTED = [
    "[" * DEPTH + "]" * DEPTH,
    '{"a":' * DEPTH + "1" + "}" * DEPTH,
    '{"action": "play", "card": ' + "[" * DEPTH + "]" * DEPTH + "}",
    '{"action": "draw", "expected_version": ' + '{"a":' * DEPTH + "1" + "}" * DEPTH + "}",
]


@pytest.mark.parametrize("payload", NESTED, ids=["list", "object", "card", "expected_version"])
def test_deeply_nested_json_is_a_clean_400(table: Table, payload: str) -> None:
    before = table.snapshot()

    refused(raw_post(table.actor_client(), table.url("actions"), payload), 400, "invalid")

    assert table.snapshot() == before


@pytest.mark.parametrize("depth", [DEPTH, 500])
def test_deeply_nested_rules_are_a_clean_400(table: Table, depth: int) -> None:
    rules = '{"stacking":' * depth + "true" + "}" * depth
    refused(raw_post(table.outsider_client(), GAMES, '{"rules": ' + rules + "}"), 400, "invalid")


# --- absurd numbers and strings in queries ------------------------------------------------------

BAD_NUMBERS = [str(2**40), str(2**31), "-1", "abc", "", "1.5", "1e3", "0x10", " ", "NaN"]


@pytest.mark.parametrize("name", ["after", "limit", "wait"])
@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_bad_event_log_queries(table: Table, name: str, value: str) -> None:
    refused(table.actor_client().get(table.url("events"), {name: value}), 400, "invalid")


@pytest.mark.parametrize("value", [*BAD_NUMBERS, "0"])
def test_bad_replay_queries(table: Table, value: str) -> None:
    refused(table.actor_client().get(table.url("replay"), {"at": value}), 400, "invalid")


def test_replay_needs_at(table: Table) -> None:
    refused(table.actor_client().get(table.url("replay")), 400, "invalid")


@pytest.mark.parametrize("query", [{"limit": 1001}, {"wait": 31}, {"limit": 0}])
def test_event_log_bounds(table: Table, query: dict[str, int]) -> None:
    refused(table.actor_client().get(table.url("events"), query), 400, "invalid")


@pytest.mark.parametrize("value", [str(2**40), "-1", "abc", "0"])
@pytest.mark.parametrize("name", ["page", "page_size"])
def test_bad_list_queries(table: Table, name: str, value: str) -> None:
    refused(table.actor_client().get(GAMES, {name: value}), 400, "invalid")


def test_a_page_past_the_end_is_a_404_with_a_code(table: Table) -> None:
    """Found by the contract fuzzer: a page past the end answered 404, undocumented."""
    query: dict[str, str | int] = {
        "mine": "true",
        "my_turn": "true",
        "page": 2**31 - 2,
        "page_size": 1,
    }
    refused(table.actor_client().get(GAMES, query), 404, "not_found")


@pytest.mark.parametrize("url", ["events", "replay"])
def test_unknown_query_parameters(table: Table, url: str) -> None:
    query: dict[str, str | int] = {"at": 1} if url == "replay" else {}
    refused(table.actor_client().get(table.url(url), {**query, "debug": "1"}), 400, "invalid")


# --- replays of an active game past its end -----------------------------------------------------


@pytest.mark.parametrize("ahead", [1, 1000, 2**31 - 1])
def test_a_replay_past_the_log_is_refused(table: Table, ahead: int) -> None:
    before = table.snapshot()
    version = before[0]
    at = min(version + ahead, 2**31 - 1)

    for client in (table.actor_client(), table.waiter_client(), table.outsider_client()):
        refused(client.get(table.url("replay"), {"at": at}), 400, "seq_out_of_range")

    assert table.snapshot() == before


def test_a_replay_of_a_lobby_is_refused(lobby: Lobby) -> None:
    refused(lobby.host.get(lobby.url("replay"), {"at": 1}), 400, "seq_out_of_range")


# --- unknown fields -----------------------------------------------------------------------------

UNKNOWN_FIELDS: list[dict[str, Any]] = [
    {"action": "draw", "cards_to_draw": 0},
    {"action": "draw", "seat": 1},
    {"action": "draw", "version": 3},
    {"action": "play", "card": "red-3", "as_seat": 1},
    {"action": "draw", "__proto__": {}},
    {"action": "draw", "": ""},
]


@pytest.mark.parametrize("body", UNKNOWN_FIELDS)
def test_unknown_action_fields(table: Table, body: dict[str, Any]) -> None:
    before = table.snapshot()

    refused(table.actor_client().post(table.url("actions"), body, format="json"), 400, "invalid")

    assert table.snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        {"max_players": 2, "admin": True},
        {"rules": {"stacking": True, "cheat": True}},
        {"status": "finished"},
        {"winner_seat": 0},
    ],
)
def test_unknown_game_fields(table: Table, body: dict[str, Any]) -> None:
    refused(table.outsider_client().post(GAMES, body, format="json"), 400, "invalid")


# --- wrong types --------------------------------------------------------------------------------

WRONG_TYPES: list[Any] = [
    {"action": "play", "card": 3},
    {"action": "play", "card": ["red-3"]},
    {"action": "play", "card": None},
    {"action": "play", "card": {"code": "red-3"}},
    {"action": "play", "card": "red-33"},
    {"action": "play", "card": "RED-3"},
    {"action": "play", "cards": "red-3"},
    {"action": "play", "cards": []},
    {"action": "play", "card": "wild", "color": 1},
    {"action": "play", "card": "wild", "color": "purple"},
    {"action": "play", "card": "red-3", "uno": [True]},
    {"action": "play", "card": "red-3", "uno": {"yes": 1}},
    {"action": "play", "card": "red-3", "uno": "maybe"},
    {"action": "play", "card": "red-7", "target": "one"},
    {"action": "play", "card": "red-7", "target": 1.5},
    {"action": "play", "card": "red-7", "target": [1]},
    {"action": "play", "card": "red-7", "target": 10},
    {"action": "play", "card": "red-7", "target": -1},
    {"action": "catch", "target": "one"},
    {"action": "catch", "target": None},
    {"action": "catch", "target": 2**63},
    {"action": "catch"},
    {"action": "color"},
    {"action": "color", "color": ["red"]},
    {"action": "draw", "expected_version": "latest"},
    {"action": "draw", "expected_version": -1},
    {"action": "draw", "expected_version": 2**31},
    {"action": "draw", "expected_version": 10**100},
    {"action": "draw", "expected_version": True},
    {"action": "draw", "expected_version": "4"},  # DRF's IntegerField would take it and act
    {"action": "draw", "expected_version": 4.5},
    {"action": "catch", "target": "1"},
    {"action": "play", "card": "red-3", "uno": "true"},
    {"action": "play", "card": "red-3", "uno": 1},
    {"action": 7},
    {"action": None},
    {"action": ["draw"]},
    {"action": "DRAW"},
    {"action": "draw "},
    {"action": "fold"},
    {},
    [],
    [{"action": "draw"}],
    "draw",
    42,
    None,
    True,
]


@pytest.mark.parametrize("body", WRONG_TYPES, ids=lambda b: json.dumps(b)[:40])
def test_wrong_types_in_actions(table: Table, body: Any) -> None:
    before = table.snapshot()

    refused(raw_post(table.actor_client(), table.url("actions"), json.dumps(body)), 400, "invalid")

    assert table.snapshot() == before


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"{",
        b"not json",
        b'{"action": "draw",}',
        b"\xff\xfe\x00",
        b'{"action": "draw", "expected_version": NaN}',
        b'{"action": "draw", "expected_version": Infinity}',
        b'{"action": "draw", "expected_version": ' + b"9" * 100_000 + b"}",
        b'{"action": "draw", "action": "play"}',
        b'{"action": "dr\\u0000aw"}',
        b'{"action": "\\ud800"}',
    ],
)
def test_bodies_that_are_not_valid_json(table: Table, payload: bytes) -> None:
    before = table.snapshot()

    refused(raw_post(table.actor_client(), table.url("actions"), payload), 400, "invalid")

    assert table.snapshot() == before


def test_a_form_body_is_an_unsupported_media_type(table: Table) -> None:
    before = table.snapshot()
    response = table.actor_client().post(table.url("actions"), {"action": "draw"})  # multipart

    refused(response, 415, "unsupported_media_type")
    assert table.snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        {"max_players": "4x"},
        {"max_players": 11},
        {"max_players": 2**63},
        {"turn_timeout": 0},
        {"turn_timeout": 2_592_001},
        {"target_score": -5},
        {"seed": -1},
        {"seed": 2**64},
        {"seed": "random"},
        {"rules": "stacking"},
        {"rules": ["stacking"]},
        {"rules": {"stacking": "yes please"}},
        {"rules": {"uno_penalty": 10**9}},
        {"rules": {"stacking": "true"}},
        {"rules": {"stacking": 1}},
        {"max_players": "2"},
        {"turn_timeout": True},
        {"deck": "red-3"},
    ],
    ids=lambda b: json.dumps(b)[:40],
)
def test_wrong_types_in_game_settings(table: Table, body: dict[str, Any]) -> None:
    refused(table.outsider_client().post(GAMES, body, format="json"), 400, "invalid")


def test_a_deck_from_a_player_who_is_not_staff(table: Table) -> None:
    response = table.outsider_client().post(GAMES, {"deck": ["red-3"] * 108}, format="json")
    refused(response, 403, "permission_denied")


def test_an_idempotency_key_too_long(table: Table) -> None:
    before = table.snapshot()
    response = table.actor_client().post(
        table.url("actions"), {"action": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="k" * 256
    )

    refused(response, 400, "invalid")
    assert table.snapshot() == before


# --- other players' tokens ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body", [{"action": "draw"}, {"action": "uno"}, {"action": "catch", "target": 0}]
)
def test_acting_in_a_game_without_a_seat(table: Table, body: dict[str, Any]) -> None:
    before = table.snapshot()

    refused(
        table.outsider_client().post(table.url("actions"), body, format="json"), 403, "not_a_player"
    )
    refused(table.outsider_client().post(table.url("resign")), 403, "not_a_player")

    assert table.snapshot() == before


def test_acting_out_of_turn(table: Table) -> None:
    before = table.snapshot()

    response = table.waiter_client().post(table.url("actions"), {"action": "draw"}, format="json")

    refused(response, 409, "not_your_turn")
    assert table.snapshot() == before


def test_lobby_calls_by_the_wrong_players(lobby: Lobby) -> None:
    refused(lobby.outsider.post(lobby.url("leave")), 403, "not_a_player")
    refused(lobby.outsider.post(lobby.url("start")), 403, "not_a_player")
    refused(lobby.guest.post(lobby.url("start")), 403, "permission_denied")
    refused(lobby.guest.post(lobby.url("join")), 409, "already_seated")
    refused(lobby.host.post(lobby.url("resign")), 409, "game_not_active")


def test_a_started_game_refuses_lobby_calls(table: Table) -> None:
    before = table.snapshot()

    refused(table.outsider_client().post(table.url("join")), 409, "game_full")
    refused(table.actor_client().post(table.url("leave")), 409, "game_not_waiting")
    refused(table.actor_client().post(table.url("start")), 409, "game_not_waiting")

    assert table.snapshot() == before


@pytest.mark.parametrize(
    "authorization",
    [
        "Token " + "0" * 40,
        "Token ",
        "Token",
        "Token a b",
        "Bearer abc",
        "Basic YWRhOmFkYQ==",
        "Token " + "x" * 10_000,
        "Token \u00e9\u00e9\u00e9",
    ],
)
def test_bad_tokens(table: Table, authorization: str) -> None:
    before = table.snapshot()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=authorization)

    refused(client.post(table.url("actions"), {"action": "draw"}, format="json"), 401)
    refused(client.get(table.url()), 401)

    assert table.snapshot() == before


def test_a_revoked_token(table: Table) -> None:
    before = table.snapshot()
    assert table.waiter_client().post("/api/v1/auth/logout/").status_code == 204

    refused(table.waiter_client().get(table.url()), 401, "not_authenticated")
    refused(table.waiter_client().post(table.url("resign")), 401, "not_authenticated")

    assert table.snapshot() == before


# --- games that do not exist --------------------------------------------------------------------

MISSING_IDS = [
    str(uuid.uuid4()),
    "00000000-0000-0000-0000-000000000000",
    "not-a-game",
    "1",
    "%00",
    "..",
    "' OR 1=1 --",
    "x" * 5000,
    "\u00e9\u00e8",
    str(uuid.uuid4()).upper() + "0",
]


@pytest.mark.parametrize("game_id", MISSING_IDS)
@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", ""),
        ("get", "events"),
        ("get", "replay"),
        ("post", "join"),
        ("post", "leave"),
        ("post", "start"),
        ("post", "resign"),
        ("post", "actions"),
    ],
)
def test_games_that_do_not_exist(table: Table, game_id: str, method: str, suffix: str) -> None:
    url = f"{GAMES}{game_id}/{suffix + '/' if suffix else ''}"
    query = {"at": 1} if suffix == "replay" else {}
    if method == "get":
        response = table.actor_client().get(url, query)
    else:
        # Only the actions endpoint takes a body: the others refuse one before the game is looked
        # up (tests/hostile/test_hardening.py, bodies where none is taken).
        body = {"action": "draw"} if suffix == "actions" else None
        response = table.actor_client().post(url, body, format="json")

    refused(response, 404, "not_found")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/players/null,null/",  # found by the contract fuzzer: Django's HTML 404 page
        "/api/v1/players/-1/",
        "/api/v1/players/99999999999999999999999/",
        "/api/v1/games/a/b/c/",
        "/api/v1/nothing/",
        "/api/v2/games/",
        "/nothing",
    ],
)
def test_paths_that_match_nothing_answer_json(table: Table, path: str) -> None:
    refused(table.actor_client().get(path), 404, "not_found")


def test_a_player_that_does_not_exist(table: Table) -> None:
    refused(table.actor_client().get("/api/v1/players/2147483647/"), 404, "not_found")


def test_a_method_the_endpoint_does_not_take(table: Table) -> None:
    before = table.snapshot()

    refused(table.actor_client().delete(table.url()), 405, "method_not_allowed")
    refused(table.actor_client().put(table.url("actions"), {"action": "draw"}, format="json"), 405)
    refused(table.actor_client().get(table.url("actions")), 405, "method_not_allowed")
    # With a body too: it was 400 "this call takes no body", as if the method were the call's.
    body = {"max_players": 2}
    refused(table.actor_client().delete(table.url(), body, format="json"), 405)
    refused(table.actor_client().delete(GAMES, body, format="json"), 405)
    refused(table.actor_client().patch(table.url("join"), body, format="json"), 405)

    assert table.snapshot() == before


def test_a_post_without_the_trailing_slash_acts_on_nothing(table: Table) -> None:
    """Django's APPEND_SLASH answers a redirect (it cannot redirect a POST's body): no 5xx."""
    before = table.snapshot()

    response = table.actor_client().post(
        table.url("actions").rstrip("/"), {"action": "draw"}, format="json"
    )

    assert response.status_code in (301, 404), response.status_code
    assert table.snapshot() == before


@override_settings(DEBUG=False)
def test_no_debug_page_leaks(table: Table) -> None:
    refused(table.actor_client().get("/api/v1/players/null,null/"), 404, "not_found")


# --- failures behind the API: the database gone, a crash, Django's own size check ----------------


def test_a_database_that_does_not_answer_is_a_503_with_a_code(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by bench/faults.py (PostgreSQL restarted under load): it answered 500."""
    from django.db import OperationalError

    from games import selectors
    from service import play

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection failed: the database system is shutting down")

    monkeypatch.setattr(selectors, "get_game", down)
    monkeypatch.setattr(play, "game_act", down)

    for response in (
        table.actor_client().get(table.url()),
        table.actor_client().post(table.url("actions"), {"action": "draw"}, format="json"),
    ):
        refused(response, 503, "unavailable")
        assert response["Retry-After"] == "1"


def test_a_crash_is_a_500_with_a_code_and_no_details(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import selectors

    def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(selectors, "get_game", crash)
    table.actor_client().raise_request_exception = False

    response = table.actor_client().get(table.url())

    refused(response, 500, "server_error")
    assert b"secret" not in response.content


def test_a_form_body_over_the_limit_outside_the_api(db: None) -> None:
    """Django's own check (a form read by the CSRF middleware) answers 413 with a code too."""
    client = APIClient()
    body = "a=" + "x" * (2 * MB)
    response = client.generic(
        "POST", "/admin/login/", body, content_type="application/x-www-form-urlencoded"
    )
    refused(response, 413, "request_too_large")


# --- lone surrogates, and ids too long to be numbers (found by fuzzing the contract) -------------

# "\ud800" is valid JSON syntax but no character: echoed in an error, the answer could not be
# encoded (a 500). Each body below puts one in a key or a value.
LONE_SURROGATES = [
    ("actions", '{"action": "draw", "\\ud800": 1}'),
    ("actions", '{"action": "play", "card": "\\udfff"}'),
    ("chat", '{"reaction": "\\ud800"}'),
    ("chat", '{"text": "hi \\uDC00"}'),
    ("", '{"\\ud800": true}'),
]


@pytest.mark.parametrize(("suffix", "payload"), LONE_SURROGATES)
def test_a_lone_surrogate_is_a_clean_400(table: Table, suffix: str, payload: str) -> None:
    before = table.snapshot()
    url = table.url(suffix) if suffix else GAMES

    refused(raw_post(table.actor_client(), url, payload), 400, "invalid")

    assert table.snapshot() == before
    assert table.actor_client().get(table.url("chat")).json()["messages"] == []


def test_a_lone_surrogate_is_refused_before_sign_in_too(db: None) -> None:
    anonymous = APIClient()
    refused(raw_post(anonymous, "/api/v1/auth/refresh/", '{"\\ud800": 1}'), 400, "invalid")
    refused(raw_post(anonymous, "/api/v1/players/", '{"username": "\\ud800"}'), 400, "invalid")


def test_an_escaped_surrogate_pair_is_a_character(table: Table) -> None:
    # The escapes of a character beyond the BMP (what a client that writes ASCII-only JSON
    # sends for an emoji) make one character, taken as it is.
    answer = raw_post(table.actor_client(), table.url("chat"), '{"text": "gg \\ud83c\\udf89"}')

    assert answer.status_code == 201, answer.content
    assert answer.json()["text"] == "gg \N{PARTY POPPER}"


@pytest.mark.parametrize("stream", ["game", "player"])
def test_a_last_event_id_too_long_to_be_a_number(table: Table, stream: str) -> None:
    url = table.url("stream") if stream == "game" else "/api/v1/players/me/stream/"
    for digits in (4_300, 4_301, 20_000):
        answer = table.actor_client().get(
            url, HTTP_ACCEPT="text/event-stream", HTTP_LAST_EVENT_ID="1" * digits
        )
        refused(answer, 400, "invalid")
