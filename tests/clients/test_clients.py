"""Clients generated from the served schema read everything the service answers.

A Python client (openapi-python-client) and TypeScript types (openapi-typescript, checked by
``tsc --strict`` against ``consumer.ts``) are generated from ``/api/schema/`` as a new user would.
Whole games are then played over real HTTP against Django's live server on PostgreSQL, and every
response and every event is parsed by the generated models: a parse that fails, an event read as
another kind, or a field the schema does not declare (dropped on the way back: ``to_dict`` must
give the body back) is a failure.
"""

from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

HERE = Path(__file__).parent
BIN = HERE / "node_modules" / ".bin"
GAMES = "/api/v1/games/"
TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"stacking": True, "reverse_bounce": True, "draw_until_playable": True}),
    (4, {"seven_zero": True, "force_play": True, "scoring": "penalty", "no_action_finish": True}),
    (3, {"elimination": True, "multi_play": True, "jump_in": True}),
]
MAX_MOVES = 3000


def _run(*command: str | Path, cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout}\n{done.stderr}"


def _npm_tools() -> None:
    """The pinned generators (package-lock.json), installed once; from npm's cache when offline."""
    if not (BIN / "tsc").exists() or not (BIN / "openapi-typescript").exists():
        npm = shutil.which("npm")
        assert npm, "the clients check needs node 20 and npm"
        _run(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", cwd=HERE)


@pytest.fixture
def served(live_server: Any, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    schema = tmp_path / "schema.json"
    response = httpx.get(f"{live_server.url}/api/schema/?format=json", timeout=30)
    assert response.status_code == 200
    schema.write_bytes(response.content)
    yield live_server.url, schema


@pytest.fixture
def models(served: tuple[str, Path], tmp_path: Path) -> Iterator[Any]:
    generator = Path(sys.executable).parent / "openapi-python-client"
    _run(
        generator,
        "generate",
        "--path",
        served[1],
        "--meta",
        "none",
        "--output-path",
        tmp_path / "uno_client",
        cwd=tmp_path,
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("uno_client.models")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "uno_client" or m.startswith("uno_client.")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    """An operation module of the generated client (``uno_client.api.<tag>.<operation_id>``)."""
    return importlib.import_module(f"uno_client.api.players.{name}")


def _parsed(model: Any, body: Any) -> Any:
    """``body`` read by the generated ``model``, which must give it back unchanged."""
    parsed = model.from_dict(body)
    assert parsed.to_dict() == body, f"{model.__name__} lost or changed a field"
    return parsed


class _Seat:
    def __init__(self, base: str, name: str) -> None:
        user = User.objects.create_user(username=name, password=None)
        token = Token.objects.create(user=user)
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Token {token.key}"}, timeout=30
        )


def _body(response: httpx.Response, status: int, models: Any, model: str = "GameView") -> Any:
    body = response.json()
    assert response.status_code == status, body
    _parsed(models.ErrorBody if status >= 400 else getattr(models, model), body)
    return body


def _play(base: str, models: Any, seats: int, rules: dict[str, Any], game_number: int) -> int:
    """One whole game (to 1 point: one round or more); the number of events it logged."""
    players = [_Seat(base, f"p{game_number}x{i}") for i in range(seats)]
    host = players[0]
    create = {"max_players": seats, "target_score": 1, "rules": rules, "seed": game_number}
    game = _body(host.http.post(GAMES, json=create), 201, models)
    url = f"{GAMES}{game['id']}/"
    for player in players[1:]:
        _body(player.http.post(url + "join/"), 200, models)
    view = _body(host.http.get(url), 200, models)  # a full table starts by itself
    assert view["status"] == "active"
    rng = random.Random(game_number)
    for _ in range(MAX_MOVES):
        if view["status"] != "active":
            break
        actor = view["round"]["current_seat"]
        view = _body(players[actor].http.get(url), 200, models)
        listed = view["you"]["legal_actions"]
        plays = [a for a in listed if a["action"] == "play"]
        action = rng.choice(plays or listed)
        view = _body(players[actor].http.post(url + "actions/", json=action), 200, models)
    assert view["status"] == "finished", "the game did not end"
    # An error answer is an ErrorBody too.
    _body(host.http.post(url + "actions/", json={"action": "draw"}), 409, models)
    count = 0
    for player in [*players, _Seat(base, f"spectator{game_number}")]:
        page = _body(player.http.get(url + "events/?limit=1000"), 200, models, "EventPage")
        count = len(page["events"])
        _body(player.http.get(url), 200, models)
        _body(player.http.get(f"{url}replay/?at={count // 2}"), 200, models)
    _body(host.http.get(GAMES + "?mine=true"), 200, models, "GamePage")
    return count


@pytest.mark.django_db(transaction=True)
def test_generated_clients_read_whole_games(
    served: tuple[str, Path], models: Any, tmp_path: Path
) -> None:
    _npm_tools()
    types = tmp_path / "api.d.ts"
    _run(BIN / "openapi-typescript", served[1], "-o", types, cwd=tmp_path)
    shutil.copy(HERE / "consumer.ts", tmp_path / "consumer.ts")
    _run(
        BIN / "tsc",
        "--strict",
        "--noEmit",
        "--target",
        "es2022",
        "--module",
        "es2022",
        "--moduleResolution",
        "bundler",
        "consumer.ts",
        cwd=tmp_path,
    )

    events = sum(
        _play(served[0], models, seats, rules, number)
        for number, (seats, rules) in enumerate(TABLES, start=1)
    )
    assert events > 100

    # The parse is strict where it matters: an unknown kind of event, or one with a field the
    # schema does not know, does not pass.
    known = {"seq": 1, "type": "uno_said", "seat": 0, "at": "2026-12-01T00:00:00+00:00", "data": {}}
    page = {"events": [known], "version": 1, "next": None}
    _parsed(models.EventPage, page)
    with pytest.raises((ValueError, KeyError, TypeError)):
        models.EventPage.from_dict({**page, "events": [{**known, "type": "uno_shouted"}]})
    with pytest.raises(AssertionError):
        _parsed(models.EventPage, {**page, "events": [{**known, "data": {"loud": True}}]})


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_signs_in_refreshes_and_plays_with_the_new_token(
    served: tuple[str, Path], models: Any
) -> None:
    """The generated Python client's own operations: sign in, the access token expires, refresh,
    play with the new access token; the spent refresh token sent again ends the session."""
    from django.utils import timezone

    from players.models import AccessToken
    from players.sessions import digest
    from tests.support.players import PASSWORD

    client_module = importlib.import_module("uno_client.client")
    base = served[0]
    User.objects.create_user(username="rita", password=PASSWORD)
    User.objects.create_user(username="sam", password=PASSWORD)
    anonymous = client_module.Client(base_url=base, raise_on_unexpected_status=True)

    def sign_in(name: str) -> Any:
        body = models.CredentialsRequest(username=name, password=PASSWORD)
        pair = _api("auth_token").sync(client=anonymous, body=body)
        assert isinstance(pair, models.AuthToken), pair
        return pair

    rita, sam = sign_in("rita"), sign_in("sam")
    AccessToken.objects.filter(digest=digest(rita.access)).update(expires_at=timezone.now())
    stale = client_module.AuthenticatedClient(base_url=base, token=rita.access, prefix="Token")
    expired = _api("players_me").sync_detailed(client=stale)
    assert expired.status_code == 401
    assert isinstance(expired.parsed, models.ErrorBody) and expired.parsed.code == "token_expired"

    refresh = models.RefreshRequest(refresh=rita.refresh)
    fresh = _api("auth_refresh").sync(client=anonymous, body=refresh)
    assert isinstance(fresh, models.AuthToken) and fresh.session == rita.session

    me = client_module.AuthenticatedClient(base_url=base, token=fresh.access, prefix="Token")
    assert _api("players_me").sync(client=me).username == "rita"
    # Play a game to its end with the new token (and sam's first one).
    http = {
        "rita": httpx.Client(base_url=base, headers={"Authorization": f"Token {fresh.access}"}),
        "sam": httpx.Client(base_url=base, headers={"Authorization": f"Token {sam.access}"}),
    }
    create = {"max_players": 2, "target_score": 1, "seed": 7}
    game = _body(http["rita"].post(GAMES, json=create), 201, models)
    url = f"{GAMES}{game['id']}/"
    view = _body(http["sam"].post(url + "join/"), 200, models)
    seats = {seat["seat"]: seat["player"]["username"] for seat in view["seats"]}
    rng = random.Random(7)
    for _ in range(MAX_MOVES):
        if view["status"] != "active":
            break
        actor = http[seats[view["round"]["current_seat"]]]
        view = _body(actor.get(url), 200, models)
        listed = view["you"]["legal_actions"]
        plays = [a for a in listed if a["action"] == "play"]
        view = _body(actor.post(url + "actions/", json=rng.choice(plays or listed)), 200, models)
    assert view["status"] == "finished"

    # Reuse: the spent refresh token ends the session; the new access token goes with it.
    reused = _api("auth_refresh").sync_detailed(client=anonymous, body=refresh)
    assert reused.status_code == 401
    assert isinstance(reused.parsed, models.ErrorBody) and reused.parsed.code == "token_reused"
    assert _api("players_me").sync_detailed(client=me).status_code == 401
