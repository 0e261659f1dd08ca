"""Structured logs: JSON lines with a request id, one line per action, and no secrets."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.support.players import PASSWORD, MakePlayer, client_with
from tests.support.table import GAMES, SEED, Table, start_table
from unoservice.logging import JsonFormatter, RequestIdFilter, TextFormatter

OnCommit = Callable[..., Any]


class Captured:
    """Every record of every logger, as the JSON and the text formatter write it."""

    def __init__(self) -> None:
        self.json = io.StringIO()
        self.text = io.StringIO()

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.json.getvalue().splitlines()]

    def all_text(self) -> str:
        return self.json.getvalue() + self.text.getvalue()


@pytest.fixture
def logs() -> Iterator[Captured]:
    captured = Captured()
    handlers = []
    for stream, formatter in ((captured.json, JsonFormatter()), (captured.text, TextFormatter())):
        handler = logging.StreamHandler(stream)
        handler.setFormatter(formatter)
        handler.addFilter(RequestIdFilter())
        handler.setLevel(logging.DEBUG)
        handlers.append(handler)
    # Django's loggers do not propagate to the root (see settings.LOGGING): listen to both.
    loggers = [logging.getLogger(), logging.getLogger("django"), logging.getLogger("django.server")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        for handler in handlers:
            logger.addHandler(handler)
    try:
        yield captured
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
            for handler in handlers:
                logger.removeHandler(handler)


def make_record(**extra: Any) -> logging.LogRecord:
    record = logging.getLogger("test").makeRecord(
        "test", logging.INFO, __file__, 1, "hello %s", ("world",), None, extra=extra
    )
    RequestIdFilter().filter(record)
    return record


def test_a_json_line_is_one_object_with_its_fields() -> None:
    record = make_record(game="g-1", seat=2, version=7, request=object(), events=[{"a": 1}])

    line = JsonFormatter().format(record)

    assert "\n" not in line
    body = json.loads(line)
    assert body["message"] == "hello world"
    assert body["level"] == "INFO" and body["logger"] == "test"
    assert body["time"].endswith("+00:00")
    assert body["request_id"] is None
    assert (body["game"], body["seat"], body["version"]) == ("g-1", 2, 7)
    assert "request" not in body and "events" not in body, "only plain values"


def test_fields_named_like_secrets_are_redacted() -> None:
    record = make_record(password="hunter2", token="abc", hand="red-1", cards="wild", seat=1)

    for line in (JsonFormatter().format(record), TextFormatter().format(record)):
        assert "hunter2" not in line and "abc" not in line
        assert "red-1" not in line and "wild" not in line
        assert "[redacted]" in line and "seat" in line


def test_an_exception_stays_on_one_json_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("test").makeRecord(
            "test", logging.ERROR, __file__, 1, "failed", (), exc_info=__import__("sys").exc_info()
        )

    line = JsonFormatter().format(record)

    assert "\n" not in line
    assert "ValueError: boom" in json.loads(line)["exc_info"]


@pytest.mark.django_db
def test_each_request_gets_an_id_that_is_echoed_and_logged(logs: Captured) -> None:
    api = APIClient()

    given = api.get("/healthz", HTTP_X_REQUEST_ID="trace-42.a")
    made = api.get("/api/v1/games/")
    forged = api.get("/healthz", HTTP_X_REQUEST_ID="bad id\nInjected: yes")

    assert given["X-Request-ID"] == "trace-42.a"
    assert re.fullmatch(r"[0-9a-f]{32}", made["X-Request-ID"])
    assert re.fullmatch(r"[0-9a-f]{32}", forged["X-Request-ID"])
    by_id = {line["request_id"]: line for line in logs.lines() if line["message"] == "request"}
    assert by_id["trace-42.a"]["path"] == "/healthz"
    assert by_id["trace-42.a"]["level"] == "DEBUG", "probes are quiet"
    refused = by_id[made["X-Request-ID"]]
    assert (refused["status"], refused["route"], refused["level"]) == (401, "api/v1/games/", "INFO")
    # Django's own warning about the 401 carries the same id.
    warnings = [line for line in logs.lines() if line["logger"] == "django.request"]
    assert [w["request_id"] for w in warnings] == [made["X-Request-ID"]]


@pytest.mark.django_db
def test_the_request_line_has_the_path_without_the_query(
    logs: Captured, make_player: MakePlayer
) -> None:
    player = make_player("ada")

    player.client.get(f"{GAMES}?status=active&secret=shh")

    (line,) = [line for line in logs.lines() if line["message"] == "request"]
    assert line["path"] == GAMES
    assert line["user_id"] == player.user.pk
    assert "shh" not in logs.all_text()


@pytest.mark.django_db
def test_every_action_logs_game_seat_action_and_version(
    logs: Captured, table: Table, django_capture_on_commit_callbacks: OnCommit
) -> None:
    actor = table.actor()

    with django_capture_on_commit_callbacks(execute=True):
        response = table.players[actor].client.post(
            table.url("actions"), {"action": "draw"}, format="json", HTTP_X_REQUEST_ID="act-1"
        )

    assert response.status_code == 200, response.content
    (line,) = [line for line in logs.lines() if line["message"] == "action"]
    assert line["logger"] == "unoservice.games"
    assert line["request_id"] == "act-1"
    assert (line["game"], line["seat"], line["action"]) == (table.id, actor, "draw")
    assert line["version"] == response.json()["version"]


def _hand_cards(table: Table) -> set[str]:
    return {card for cards in table.hands().values() for card in cards}


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@pytest.mark.django_db
def test_no_log_line_holds_a_password_a_token_or_a_hidden_card(
    logs: Captured, make_player: MakePlayer, django_capture_on_commit_callbacks: OnCommit
) -> None:
    # Log SQL too, if anything would: its parameters hold token keys and hands.
    connection.force_debug_cursor = True
    try:
        anonymous = APIClient()
        registered = anonymous.post(
            "/api/v1/players/", {"username": "zoe", "password": PASSWORD}, format="json"
        )
        refused = anonymous.post(
            "/api/v1/players/", {"username": "zed", "password": "zed"}, format="json"
        )
        wrong = anonymous.post(
            "/api/v1/auth/token/", {"username": "zoe", "password": "not-it-9"}, format="json"
        )
        token = anonymous.post(
            "/api/v1/auth/token/", {"username": "zoe", "password": PASSWORD}, format="json"
        ).json()["token"]
        zoe = make_player("zoe")
        zoe.client = client_with(token)
        table = start_table([zoe, make_player("bob")], seed=SEED)
        seen = _hand_cards(table)
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(6):
                actor = table.actor()
                view = table.view(actor)
                plays = [a for a in view["you"]["legal_actions"] if a["action"] == "play"]
                action = plays[0] if plays else {"action": "draw"}
                table.players[actor].client.post(table.url("actions"), action, format="json")
                table.players[1 - actor].client.post(
                    table.url("actions"), {"action": "draw"}, format="json"
                )
                seen |= _hand_cards(table)
        table.players[0].client.get(table.url("events"))
        table.players[0].client.get(table.url("replay"), {"at": 3})
    finally:
        connection.force_debug_cursor = False

    assert (registered.status_code, refused.status_code, wrong.status_code) == (201, 400, 400)
    text = logs.all_text()
    assert len(logs.lines()) > 20 and "action" in text
    secrets = {PASSWORD, "not-it-9", token, zoe.token, *(p.token for p in table.players)}
    for secret in secrets:
        assert secret not in text
    leaked = sorted(card for card in seen if _mentions(text, card))
    assert leaked == []
