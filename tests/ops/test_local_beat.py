"""``make run`` with no broker runs the periodic tasks itself (``unoservice.local_beat``): a seat
out of time is acted for on time, with no one reading its game."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.support.streams import (
    END,
    PLAYER_STREAM,
    Server,
    Stream,
    make_run_server,
    open_stream,
)
from unoservice.local_beat import LocalBeat, intervals

GAMES = "/api/v1/games/"


class Calls:
    """The task names a beat ran, in order; ``reached`` is set once ``until`` holds."""

    def __init__(self, until: Any, fail_first: str | None = None) -> None:
        self.names: list[str] = []
        self.until = until
        self.fail_first = fail_first
        self.reached = threading.Event()

    def __call__(self, name: str) -> None:
        self.names.append(name)
        if self.until(self.names):
            self.reached.set()
        if name == self.fail_first and self.names.count(name) == 1:
            raise RuntimeError("the broker of a test")


def test_each_task_runs_at_once_then_every_period_until_stopped() -> None:
    schedule = {
        "often": {"task": "often", "schedule": 0.01},
        "daily": {"task": "daily", "schedule": timedelta(days=1)},
    }
    calls = Calls(until=lambda names: names.count("often") >= 3)
    beat = LocalBeat(schedule, run=calls)
    beat.start()
    try:
        assert calls.reached.wait(30), calls.names
    finally:
        beat.stop()
    assert not beat.alive
    assert calls.names[:2] == ["often", "daily"], "every task runs once at the start"
    assert calls.names.count("daily") == 1, "a day's task waits for its day"


def test_a_task_that_fails_is_logged_and_runs_again(caplog: pytest.LogCaptureFixture) -> None:
    calls = Calls(until=lambda names: len(names) >= 2, fail_first="sweep")
    beat = LocalBeat({"sweep": {"task": "sweep", "schedule": 0.01}}, run=calls)
    with caplog.at_level(logging.ERROR, logger="unoservice.local_beat"):
        beat.start()
        try:
            assert calls.reached.wait(30), calls.names
        finally:
            beat.stop()
    assert calls.names[:2] == ["sweep", "sweep"]
    assert "the periodic task sweep failed" in caplog.text


def test_an_empty_schedule_runs_nothing_and_ends() -> None:
    calls = Calls(until=lambda names: True)
    beat = LocalBeat({}, run=calls)
    beat.start()
    beat.stop()
    assert not beat.alive and calls.names == []


def test_the_schedule_is_read_in_seconds_and_a_period_of_nothing_is_refused() -> None:
    schedule = {
        "a": {"task": "x", "schedule": 5},
        "b": {"task": "y", "schedule": timedelta(hours=1)},
    }
    assert intervals(schedule) == {"x": 5.0, "y": 3600.0}
    with pytest.raises(ValueError, match="no period"):
        intervals({"a": {"task": "x", "schedule": 0}})


# --- make run's server ---------------------------------------------------------------------------


def sign_up(server: Server, name: str) -> str:
    login = {"username": name, "password": "a long passphrase 1"}
    assert server.request("POST", "/api/v1/players/", body=login)[0] == 201
    status, body = server.request("POST", "/api/v1/auth/token/", body=login)
    assert status == 200, body
    return str(body["token"])


def kinds_in_inbox(server: Server, token: str) -> list[str]:
    status, body = server.request("GET", "/api/v1/notifications/", token)
    assert status == 200, body
    return [note["kind"] for note in body["results"]]


def await_notification(stream: Stream, kind: str) -> None:
    """Read ``stream`` (a player's) until it tells a notification of ``kind``."""
    seen: list[str | None] = []
    while True:
        message = stream.next_event(timeout=60)
        assert message is not END, f"the stream ended after {seen}"
        seen.append(message.event)
        if message.event == kind:
            return


def test_make_run_acts_for_a_seat_out_of_time_with_no_one_reading_its_game(
    tmp_path: Path,
) -> None:
    """A game whose seat to act runs out of its one second and its one timeout: the forfeit ends
    the game, and both players' inboxes say so, while nobody reads the game (a read would act
    for the late seat itself)."""
    with make_run_server(tmp_path, {"UNO_SWEEP_INTERVAL": "0.2"}) as server:
        ada, bob = sign_up(server, "ada"), sign_up(server, "bob")
        stream = open_stream(server, PLAYER_STREAM, token=bob)
        spec = {"max_players": 2, "turn_timeout": 1, "max_timeouts": 1}
        status, game = server.request("POST", GAMES, ada, spec)
        assert status == 201, game
        status, joined = server.request("POST", f"{GAMES}{game['id']}/join/", bob)
        assert status == 200, joined

        try:
            await_notification(stream, "game_finished")
        finally:
            stream.close()
        assert "game_finished" in kinds_in_inbox(server, ada)

        status, view = server.request("GET", f"{GAMES}{game['id']}/", ada)
        assert status == 200 and view["status"] == "finished", view
        statuses = sorted(seat["status"] for seat in view["seats"])
        assert statuses == ["forfeited", "playing"], view["seats"]
