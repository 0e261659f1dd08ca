"""With no configuration (``make run``: SQLite, one uvicorn process) the streams are told of new
events in-process, on commit: a game played over HTTP reaches its stream."""

from __future__ import annotations

import contextlib
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.support.streams import (
    GAMES,
    KEEPALIVE,
    WAIT,
    Server,
    Stream,
    as_log,
    assert_ends_with_a_retry_hint,
    ending,
    event_log,
    make_run_server,
    open_stream,
    play,
    view,
)


def sqlite_service(folder: Path) -> contextlib.AbstractContextManager[Server]:
    """``make run``'s server on a fresh SQLite database in ``folder``, its streams told by notices
    alone, bots in the request's thread."""
    env = {
        "UNO_STREAM_KEEPALIVE": str(KEEPALIVE),  # frames must come through the notices
        "UNO_THROTTLE_ACTIONS": "off",
        "UNO_BOT_DELAY": "0",
    }
    return make_run_server(folder, env)


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_service(tmp_path_factory.mktemp("sqlite")) as server:
        yield server


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


def play_against_bots(server: Server, seat: Any, rng: random.Random, moves: int) -> list[int]:
    """Create a game against three bots and make ``moves`` of the person's moves as fast as the
    service allows (reads in between); every status answered."""
    statuses = []
    status, game = server.request(
        "POST", GAMES, seat.token, {"max_players": 4, "bots": ["basic", "random", "strong"]}
    )
    statuses.append(status)
    if status != 201:
        raise AssertionError(f"the game was not created: {status} {game}")
    for _ in range(moves):
        status, body = server.request("GET", f"{GAMES}{game['id']}/", seat.token)
        statuses.append(status)
        if status != 200 or body["status"] != "active":
            break
        legal = body["you"]["legal_actions"]
        if legal:
            action = rng.choice(legal)
            status, _ = server.request("POST", f"{GAMES}{game['id']}/actions/", seat.token, action)
            statuses.append(status)
    return statuses


def test_people_playing_bots_at_once_on_sqlite_get_no_server_error(
    sqlite_server: Server,
) -> None:
    """``make run``'s SQLite with bots moving in-process beside several players' requests: writers
    wait for each other instead of failing with "database is locked"."""
    seats = [sign_up(sqlite_server, f"solo{n}") for n in range(4)]
    with ThreadPoolExecutor(max_workers=len(seats)) as pool:
        answers = list(
            pool.map(
                lambda n: play_against_bots(sqlite_server, seats[n], random.Random(n), 40),
                range(len(seats)),
            )
        )
    statuses = [status for played in answers for status in played]
    assert not [s for s in statuses if s >= 500], statuses
    # Refusals are the game's own (a move the bots' moves made stale), never a server error.
    assert set(statuses) <= {200, 201, 400, 409}, set(statuses)
    assert "database is locked" not in sqlite_server.log.read_text()


def test_stopping_make_runs_server_ends_its_streams_at_once(tmp_path: Path) -> None:
    """Ctrl-C on ``make run`` with a browser tab open: the stream ends with its retry hint and the
    server exits, instead of waiting for the tab to close."""
    with sqlite_service(tmp_path) as server:  # a server of its own: it gets stopped
        seat = sign_up(server, "ada")
        status, game = server.request("POST", GAMES, seat.token, {"max_players": 2})
        assert status == 201, game
        stream = open_stream(server, f"{GAMES}{game['id']}/stream/", token=seat.token)
        try:
            stopped = time.monotonic()
            server.process.send_signal(signal.SIGINT)
            assert_ends_with_a_retry_hint(ending(stream))
            assert server.process.wait(timeout=WAIT) == 0
            assert time.monotonic() - stopped < WAIT
            assert "Traceback" not in server.log.read_text()  # a clean stop, as Ctrl-C asks
        finally:
            stream.close()
