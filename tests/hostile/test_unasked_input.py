"""What a client sends that a call does not take: a body where the schema shows none, a page of
HTML asked of a JSON API, a body over the size limit. Each is refused with a JSON error and a
code, and changes nothing; an empty body, ``{}`` and a browser's usual ``Accept`` go through."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from games.models import Game, Seat
from players.models import Block, BotAccount, Session
from tests.hostile.test_hostile import MB, raw_post, refused
from tests.support.players import client_for
from tests.support.table import Lobby, Table

GUEST = "/api/v1/players/guest/"
REGISTER = "/api/v1/players/"

# --- a body where the schema shows none ---------------------------------------------------------


def world() -> tuple[Any, ...]:
    """What the calls below change: games, seats, accounts, sessions, blocks, bot accounts."""
    return (
        list(Game.objects.order_by("pk").values_list("pk", "status", "version")),
        list(Seat.objects.order_by("pk").values_list("game_id", "player_id", "status")),
        list(User.objects.order_by("pk").values_list("pk", "is_active")),
        list(Session.objects.order_by("pk").values_list("pk", "ended_at")),
        list(Block.objects.order_by("pk").values_list("blocker_id", "blocked_id")),
        list(BotAccount.objects.values_list("pk", flat=True)),
    )


Call = Callable[[Lobby, Table], tuple[APIClient, str, str]]
# Calls that take no body, each one that changes something when it goes through.
NO_BODY: dict[str, Call] = {
    "join": lambda lobby, table: (lobby.outsider, "post", lobby.url("join")),
    "leave": lambda lobby, table: (lobby.guest, "post", lobby.url("leave")),
    "start": lambda lobby, table: (lobby.host, "post", lobby.url("start")),
    "resign": lambda lobby, table: (table.actor_client(), "post", table.url("resign")),
    "guest": lambda lobby, table: (APIClient(), "post", GUEST),
    "bot account": lambda lobby, table: (
        lobby.outsider,
        "post",
        "/api/v1/players/me/bot-account/",
    ),
    "block": lambda lobby, table: (
        table.client(0),
        "post",
        f"/api/v1/players/{table.players[1].id}/block/",
    ),
}


def send(client: APIClient, method: str, url: str, body: str | None, **extra: Any) -> Any:
    if body is None:
        return getattr(client, method)(url, **extra)
    return client.generic(method.upper(), url, body, content_type="application/json", **extra)


@pytest.mark.parametrize("name", list(NO_BODY))
def test_a_body_with_fields_is_refused_and_changes_nothing(
    lobby: Lobby, table: Table, name: str
) -> None:
    """``{"seat": 3}`` to ``join/`` or ``{"confirm": false}`` to ``resign/``: the client believes
    it was heard; the call would act without it."""
    client, method, url = NO_BODY[name](lobby, table)
    before = world()

    answer = send(client, method, url, json.dumps({"seat": 3, "confirm": False}))

    body = refused(answer, 400, "invalid")
    assert "confirm, seat" in body["detail"] and "takes no body" in body["detail"], body
    assert set(body["errors"]) == {"confirm", "seat"}
    assert {check["code"] for field in ("confirm", "seat") for check in body["fields"][field]} == {
        "unknown_field"
    }
    assert world() == before


@pytest.mark.parametrize("payload", ["[]", '[{"seat": 3}]', '"join"', "0", "true", "null"])
@pytest.mark.parametrize("name", ["join", "guest"])
def test_a_body_that_is_not_an_object_is_refused(
    lobby: Lobby, table: Table, name: str, payload: str
) -> None:
    client, method, url = NO_BODY[name](lobby, table)
    before = world()

    body = refused(send(client, method, url, payload), 400, "invalid")

    assert "takes no body" in body["detail"], body
    assert world() == before


@pytest.mark.parametrize("name", ["join", "guest"])
def test_a_body_that_is_not_json_is_refused(lobby: Lobby, table: Table, name: str) -> None:
    client, method, url = NO_BODY[name](lobby, table)
    before = world()

    for content_type in ("application/x-www-form-urlencoded", "text/plain"):
        answer = client.generic(method.upper(), url, "seat=3", content_type=content_type)
        refused(answer, 415, "unsupported_media_type")
    assert world() == before


@pytest.mark.parametrize("body", [None, "{}"], ids=["no body", "empty object"])
@pytest.mark.parametrize("name", list(NO_BODY))
def test_no_body_or_an_empty_object_goes_through(
    lobby: Lobby, table: Table, name: str, body: str | None
) -> None:
    """What generated clients send to a call without a body: nothing, or ``{}``."""
    client, method, url = NO_BODY[name](lobby, table)
    before = world()

    answer = send(client, method, url, body)

    assert 200 <= answer.status_code < 300, (answer.status_code, answer.content[:300])
    assert world() != before


def test_every_call_the_schema_shows_without_a_body_refuses_one(db: None, tmp_path: Path) -> None:
    """Every POST, PUT, PATCH and DELETE of the schema without a request body, with ids that
    name nothing: the body is refused before the call looks anything up, so what the schema
    says and what the service takes are one thing (unoservice.api.APIView)."""
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]
    caller = client_for(User.objects.create_user("caller", password=None))
    operations = [
        (path, method, operation)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if method in {"post", "put", "patch", "delete"} and "requestBody" not in operation
    ]
    assert len(operations) >= 20
    before = world()

    for path, method, operation in operations:
        url = path
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                url = url.replace(f"{{{parameter['name']}}}", _nothing(parameter["schema"]))
        assert "{" not in url, url
        answer = send(caller, method, url, json.dumps({"unexpected": 1}))

        body = refused(answer, 400, "invalid")
        assert "unexpected" in body["detail"], (method, path, body)
    assert world() == before


def _nothing(schema: dict[str, Any]) -> str:
    """A value of a path parameter's type that names nothing."""
    return "2147483000" if schema.get("type") == "integer" else str(uuid.uuid4())


# --- HTML asked of a JSON API -------------------------------------------------------------------

# What Firefox and Chromium send when a page is opened.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def assert_json(answer: Any) -> Any:
    assert answer["Content-Type"].startswith("application/json"), answer["Content-Type"]
    assert not answer.content.lstrip().startswith(b"<"), answer.content[:200]
    return answer.json()


@pytest.mark.parametrize("accept", ["text/html", "text/html,application/xhtml+xml"])
def test_asking_for_html_only_is_a_json_406_and_changes_nothing(table: Table, accept: str) -> None:
    """The browsable API (an HTML page of each call, with forms) is not served: the schema
    promises JSON only."""
    client = table.actor_client()
    before = world()

    for answer in (
        client.get(table.url(), HTTP_ACCEPT=accept),
        client.get("/api/v1/players/me/", HTTP_ACCEPT=accept),
        client.post(table.url("actions"), {"action": "draw"}, format="json", HTTP_ACCEPT=accept),
        APIClient().post(GUEST, HTTP_ACCEPT=accept),
    ):
        assert answer.status_code == 406, answer.content[:200]
        assert assert_json(answer)["code"] == "not_acceptable"
    assert world() == before


def test_a_browsers_accept_gets_json(table: Table) -> None:
    client = table.actor_client()

    answer = client.get(table.url(), HTTP_ACCEPT=BROWSER)

    assert answer.status_code == 200
    assert assert_json(answer) == client.get(table.url()).json()
    # The format parameter once chose the browsable API: now it chooses nothing but JSON.
    chosen = client.get(table.url(), {"format": "api"})
    assert assert_json(chosen)["code"] == "not_found"


def test_the_api_docs_are_still_a_page(db: None) -> None:
    """Swagger UI (its own HTML view) is what a person reads the API in."""
    answer = APIClient().get("/api/docs/")

    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/html")


# --- a body over the size limit -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "content_type", "payload"),
    [
        (REGISTER, "application/json", json.dumps({"username": "x" * (2 * MB)})),
        (GUEST, "application/json", json.dumps({"padding": "x" * (2 * MB)})),
        ("/admin/login/", "application/x-www-form-urlencoded", "a=" + "x" * (2 * MB)),
    ],
    ids=["registration", "a call without a body", "the admin's form"],
)
def test_an_oversized_body_is_a_413_and_no_error_in_the_log(
    db: None, caplog: pytest.LogCaptureFixture, url: str, content_type: str, payload: str
) -> None:
    """A client's oversized body is the client's mistake: the request line says 413; nothing
    is logged at ERROR (Django's RequestDataTooBig once was, with a traceback)."""
    users = User.objects.count()

    with caplog.at_level(logging.DEBUG):
        answer = APIClient().generic("POST", url, payload, content_type=content_type)

    refused(answer, 413, "request_too_large")
    assert User.objects.count() == users
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        (r.name, r.levelname, r.getMessage()) for r in caplog.records
    ]
    lines = [r for r in caplog.records if r.name == "unoservice.request"]
    assert [getattr(r, "status", None) for r in lines] == [413]


def test_a_body_just_under_the_limit_still_reaches_the_call(db: None) -> None:
    payload = json.dumps({"username": "x" * 200_000, "password": "p"}).encode()

    refused(raw_post(APIClient(), REGISTER, payload), 400, "invalid")


# --- a path that is not one ---------------------------------------------------------------------


@pytest.mark.parametrize("debug", [True, False], ids=["make run (DEBUG)", "production"])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_call_without_its_trailing_slash_is_told_the_path_and_changes_nothing(
    table: Table, settings: Any, debug: bool, method: str
) -> None:
    """Under DEBUG (``make run``) Django raised for these (a 500); without it, it answered 301,
    which a client sends again as a GET: a POST meant to create a game listed the games."""
    settings.DEBUG = debug
    client = table.actor_client()
    before = world()

    for url in ("/api/v1/games", table.url("actions").rstrip("/"), "/api/v1/players"):
        answer = send(client, method, url, '{"action": "draw"}')
        body = refused(answer, 404, "not_found")
        assert f"{url}/" in body["detail"], body
    assert world() == before


def test_a_get_without_its_trailing_slash_is_still_redirected(table: Table) -> None:
    answer = table.actor_client().get("/api/v1/games?mine=true")

    assert answer.status_code == 301
    assert answer["Location"] == "/api/v1/games/?mine=true"


@pytest.mark.parametrize("debug", [True, False], ids=["make run (DEBUG)", "production"])
@pytest.mark.parametrize(
    "url", ["/api/v1/nothing/", "/api/v1/games/x/y/z/", "/api/v2/games/", "/api/v1/players/abc/"]
)
def test_a_path_of_the_api_that_matches_nothing_is_a_json_404(
    table: Table, settings: Any, debug: bool, url: str
) -> None:
    """Under DEBUG Django answered its HTML page, which no client reads."""
    settings.DEBUG = debug

    for answer in (table.actor_client().get(url), APIClient().post(url, {}, format="json")):
        assert refused(answer, 404, "not_found")["code"] == "not_found"
