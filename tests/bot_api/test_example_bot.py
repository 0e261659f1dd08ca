"""``examples/bot.py`` run as a program against a live server (the Procfile's web process, the
real ASGI server): it plays a bot account's whole game against a ``basic`` built-in bot, through
a restart of the server in the middle (its streams end; it reconnects with ``Last-Event-ID``),
and it accepts a challenge it is sent while it runs.

The restart falls mid-game by construction: the program is paused (``SIGSTOP``) after a move,
so the game, which waits for its moves, stands still while the server stops and starts again;
resumed (``SIGCONT``), the program finds its streams ended and its connections gone."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Challenge, Event, Game, GameStatus
from players.sessions import session_start
from tests.support.streams import (
    HOST,
    ROOT,
    Server,
    database_url,
    free_port,
    start_server,
    stop_server,
)

BOT_ACCOUNT = "/api/v1/players/me/bot-account/"
EXAMPLE = ROOT / "examples" / "bot.py"
GAME_TIME = 300.0  # seconds: the most a whole game may take here (a bound, never a sleep)
# The settings of the game played: a fixed deal (seeds from players are allowed on this server).
GAME = {"max_players": 2, "bots": ["basic"], "target_score": 100, "seed": 20261203}
SERVER_ENV = {"UNO_BOT_DELAY": "0", "UNO_SEEDS_FROM_PLAYERS": "1"}


def _until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``condition`` until it is truthy, for ``timeout`` seconds at most."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)  # polling a condition under a deadline, as wait_until_up does
    raise AssertionError(f"not within {timeout} s: {what}")


class Program:
    """``examples/bot.py`` in a process of its own; its log in a file."""

    def __init__(self, server: Server, token: str, log: Path, games: int) -> None:
        self.log = log
        url = f"http://{HOST}:{server.port}"
        command = [sys.executable, str(EXAMPLE), "--server", url, "--token", token]
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                [*command, "--games", str(games)], stdout=output, stderr=subprocess.STDOUT
            )

    def text(self) -> str:
        return self.log.read_text()

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def finish(self, timeout: float = 60.0) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
            raise AssertionError(f"the program did not stop: {self.text()[-3000:]}") from None


@pytest.fixture
def live(
    transactional_db: None, django_db_blocker: Any, tmp_path: Path
) -> Iterator[dict[str, Any]]:
    """A server of this test's own (it is restarted), and the bot account's access token."""
    url, port, log = database_url(django_db_blocker), free_port(), tmp_path / "server.log"
    place: dict[str, Any] = {"url": url, "port": port, "log": log}
    place["server"] = start_server(url, port, log, keepalive=5.0, env=SERVER_ENV)
    try:
        user = User.objects.create_user("deep-uno", password=None)
        token = session_start(user=user).access
        status, body = place["server"].request("POST", BOT_ACCOUNT, token)
        assert status == 200 and body["bot_account"] is True, body
        place.update(user=user, token=token)
        yield place
    finally:
        stop_server(place["server"])


def test_the_example_plays_a_whole_game_against_a_basic_bot_through_a_server_restart(
    live: dict[str, Any], tmp_path: Path
) -> None:
    server: Server = live["server"]
    status, game = server.request("POST", "/api/v1/games/", live["token"], GAME)
    assert status == 201 and game["status"] == "active", game
    assert [seat.get("bot_account", seat.get("bot")) for seat in game["seats"]] == [True, "basic"]

    program = Program(server, live["token"], tmp_path / "bot.log", games=1)
    try:
        # The program finds the game in its stream's snapshot and plays; once it has moved on an
        # event of the game's stream (its second move: the first is made on reading the view),
        # it is paused, and the server stops (its streams end with a closing retry) and comes
        # back on the same port.
        moved = re.compile(rf"game {game['id']}: .* -> 200")
        _until(lambda: len(moved.findall(program.text())) >= 2, 60, "two moves")
        program.pause()
        stop_server(server)
        paused_at = Game.objects.get(pk=game["id"]).version
        live["server"] = start_server(
            live["url"], live["port"], live["log"], keepalive=5.0, env=SERVER_ENV
        )
        program.resume()
        finished = _until(
            lambda: Game.objects.filter(pk=game["id"], status=GameStatus.FINISHED).first(),
            GAME_TIME,
            "the game's end",
        )
        assert program.finish() == 0, program.text()[-3000:]
    finally:
        if program.process.poll() is None:
            program.process.kill()

    text = program.text()
    assert finished.winner_seat is not None
    assert f"game {game['id']} finished" in text
    assert " -> 422" not in text, text  # every action it sent was one the server listed
    moves = Event.objects.filter(game_id=game["id"], seat=0, type="card_played").count()
    assert moves > 0
    # It went on after the restart from the last event it had seen, in the middle of the game.
    resumed = [
        int(n) for n in re.findall(rf"game {game['id']}: stream ended, Last-Event-ID (\d+)", text)
    ]
    assert any(0 < seq <= paused_at < finished.version for seq in resumed), text[-3000:]
    assert "snapshot: " in text


def test_the_example_accepts_a_challenge_sent_while_it_runs(
    live: dict[str, Any], tmp_path: Path
) -> None:
    server: Server = live["server"]
    person = User.objects.create_user("ada", password=None)
    token = session_start(user=person).access
    program = Program(server, live["token"], tmp_path / "bot.log", games=1)
    try:
        _until(lambda: "snapshot: " in program.text(), 60, "the program's player stream")
        body = {"to": live["user"].username, "settings": {"turn_timeout": 600}}
        status, made = server.request("POST", "/api/v1/challenges/", token, body)
        assert status == 201 and made["game"] is None, made
        accepted = _until(
            lambda: Challenge.objects.filter(pk=made["id"], game__isnull=False).first(),
            60,
            "the program's answer",
        )
        status, view = server.request("POST", f"/api/v1/games/{accepted.game_id}/resign/", token)
        assert status == 200 and view["status"] == "finished", view
        assert program.finish() == 0, program.text()[-3000:]
    finally:
        if program.process.poll() is None:
            program.process.kill()
    assert f"game {accepted.game_id} finished" in program.text()
