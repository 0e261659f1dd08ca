"""With no configuration (``make run``: SQLite, one uvicorn process) the streams are told of new
events in-process, on commit: a game played over HTTP reaches its stream."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.streams import (
    GAMES,
    KEEPALIVE,
    ROOT,
    Server,
    Stream,
    as_log,
    event_log,
    free_port,
    open_stream,
    play,
    view,
    wait_until_up,
)


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("sqlite")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")},
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "UNO_STREAM_KEEPALIVE": str(KEEPALIVE),  # frames must come through the notices
        "UNO_THROTTLE_REGISTRATION": "off",
        "UNO_THROTTLE_TOKEN": "off",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    manage = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True, timeout=120)
    port = free_port()
    log = folder / "server.log"
    command = [sys.executable, "-m", "uvicorn", "unoservice.asgi:application", "--port", str(port)]
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    server = Server(port, process, log)
    try:
        wait_until_up(server)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def sign_up(server: Server, name: str) -> Any:
    login = {"username": name, "password": "a long passphrase 1"}
    assert server.request("POST", "/api/v1/players/", body=login)[0] == 201
    status, body = server.request("POST", "/api/v1/auth/token/", body=login)
    assert status == 200, body

    class Seat:
        token = body["token"]

    return Seat()


def test_a_game_played_on_sqlite_reaches_its_stream(
    sqlite_server: Server, streams: list[Stream]
) -> None:
    seats = [sign_up(sqlite_server, "ada"), sign_up(sqlite_server, "bob")]
    status, game = sqlite_server.request("POST", GAMES, seats[0].token, {"max_players": 2})
    assert status == 201, game
    stream = open_stream(sqlite_server, f"{GAMES}{game['id']}/stream/", token=seats[1].token)
    streams.append(stream)
    assert sqlite_server.request("POST", f"{GAMES}{game['id']}/join/", seats[1].token)[0] == 200
    assert view(sqlite_server, game["id"], seats[0])["status"] == "active"

    version = play(sqlite_server, game["id"], seats, random.Random(4), moves=10)

    received = as_log(stream.events_until(version))
    assert received == event_log(sqlite_server, game["id"], seats[1])
