"""The streams suite: the real ASGI server (the Procfile's web process) on loopback, over the test
database on PostgreSQL, with two workers, so a write in one process reaches a stream in another.

Every test here commits (``transactional_db``): the server is another process and sees only
what committed. Frames are awaited from a reader thread with bounded waits, never sleeps."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from streams import sse
from tests.support.decks import TEST_SALT

ROOT = Path(__file__).resolve().parents[2]


HOST = "127.0.0.1"
PLAYER_STREAM = "/api/v1/players/me/stream/"


WAIT = 15.0  # seconds: the most any awaited frame may take (a bound, never a sleep)


# The suite's server keeps idle streams alive only every minute, so every frame a test awaits
# (within WAIT) came through a notice, never through the re-read after a keep-alive; the keep-alive
# test has a server of its own.
KEEPALIVE = 60.0


QUICK_KEEPALIVE = 0.2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def request(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float = WAIT,
    ) -> tuple[int, Any]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Token {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
        answer = conn.getresponse()
        data = answer.read()
        conn.close()
        return answer.status, json.loads(data) if data else None


def wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited: {server.log.read_text()[-3000:]}")
        try:
            if server.request("GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)  # polling the server's start-up, bounded above
    raise RuntimeError("the server did not start")


def database_url(django_db_blocker: Any) -> str:
    """The test database's URL, for a server in another process (PostgreSQL only: skip else)."""
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            pytest.skip("the streams suite runs on PostgreSQL: set DATABASE_URL")
        database = connection.settings_dict["NAME"]
    return os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{database}"


def start_server(
    url: str, port: int, log: Path, keepalive: float, env: dict[str, str] | None = None
) -> Server:
    """The Procfile's web process on ``HOST:port`` over the database at ``url``, up and
    answering; ``env`` adds to its environment. Tasks run in-process (no broker), unless ``env``
    names one (``CELERY_BROKER_URL``)."""
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "UNO_STREAM_KEEPALIVE": str(keepalive),
        "UNO_THROTTLE_ACTIONS": "off",
        "DATABASE_CONN_MAX_AGE": "0",
        "DJANGO_DEBUG": "1",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "UNO_TEST_SALT": TEST_SALT,  # a seed deals the same cards in the server as in-process
        "UNO_BOT_DELAY": "0",  # bots play in the request's thread, as in the in-process tests
        **(env or {}),
    }
    if "CELERY_BROKER_URL" not in (env or {}):
        environment.pop("CELERY_BROKER_URL", None)
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        "python:unoservice.gunicorn_asgi",
        "unoservice.asgi:application",
        "--bind",
        f"{HOST}:{port}",
    ]
    with log.open("ab") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=output, stderr=output)
    running = Server(port, process, log)
    try:
        wait_until_up(running)
    except BaseException:
        stop_server(running)
        raise
    return running


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=30)


@contextlib.contextmanager
def make_run_server(folder: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """``make run``'s server (``unoservice.serve``: one uvicorn process, no broker) on a fresh
    SQLite database in ``folder``, migrated, up and answering; ``env`` adds to its environment."""
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")},
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "UNO_THROTTLE_REGISTRATION": "off",
        "UNO_THROTTLE_TOKEN": "off",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        **(env or {}),
    }
    manage = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=environment, check=True, timeout=120)
    log, port = folder / "server.log", free_port()
    command = [sys.executable, "-m", "unoservice.serve", "--host", HOST, "--port", str(port)]
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=output, stderr=output)
    running = Server(port, process, log)
    try:
        wait_until_up(running)
        yield running
    finally:
        stop_server(running)


def run_server(
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
    keepalive: float,
    env: dict[str, str] | None = None,
) -> Iterator[Server]:
    url = database_url(django_db_blocker)
    log = tmp_path_factory.mktemp("server") / "server.log"
    running = start_server(url, free_port(), log, keepalive, env)
    try:
        yield running
    finally:
        stop_server(running)


@dataclass
class Message:
    id: str | None
    event: str | None
    data: str | None
    comment: str | None = None
    retry: str | None = None  # a ``retry`` field: when the client is to reconnect (ms)

    @property
    def json(self) -> Any:
        return json.loads(self.data or "null")


END = Message(None, None, None, comment="<end of stream>")


@dataclass
class Stream:
    """One open stream; a thread parses it into messages (comments included) and a queue."""

    status: int
    headers: dict[str, str]
    body: Any  # the error body when status is not 200
    messages: queue.Queue[Message] = field(default_factory=queue.Queue)
    sock: socket.socket | None = None
    snapshot: Message | None = None  # the player stream's opening ``snapshot`` message

    def next(self, timeout: float = WAIT) -> Message:
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message within {timeout} s") from None

    def next_event(self, timeout: float = WAIT) -> Message:
        """The next message that is an event (keep-alives and ``retry`` skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            if message is END or message.event is not None:
                return message

    def events_until(self, last_id: int, timeout: float = WAIT) -> list[Message]:
        """Every event up to id ``last_id``."""
        received: list[Message] = []
        while not received or int(received[-1].id or 0) < last_id:
            message = self.next_event(timeout)
            assert message is not END, f"the stream ended after {received[-1:]}"
            received.append(message)
        return received

    def close(self) -> None:
        if self.sock is not None:
            self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()
            self.sock = None


def _read_messages(sock: socket.socket, rest: bytes, sink: queue.Queue[Message]) -> None:
    """Parse a chunked text/event-stream into messages until the stream or socket ends."""
    buffer = rest
    text = b""

    def chunks() -> Iterator[bytes]:
        nonlocal buffer
        while True:
            while b"\r\n" not in buffer:
                more = sock.recv(65536)
                if not more:
                    return
                buffer += more
            size_line, _, buffer = buffer.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                return
            while len(buffer) < size + 2:
                more = sock.recv(65536)
                if not more:
                    return
                buffer += more
            yield buffer[:size]
            buffer = buffer[size + 2 :]

    try:
        fields: dict[str, str] = {}
        for chunk in chunks():
            text += chunk
            while b"\n" in text:
                line, _, text = text.partition(b"\n")
                decoded = line.decode()
                if decoded == "":
                    if fields:
                        sink.put(
                            Message(
                                fields.get("id"),
                                fields.get("event"),
                                fields.get("data"),
                                retry=fields.get("retry"),
                            )
                        )
                    fields = {}
                elif decoded.startswith(":"):
                    sink.put(Message(None, None, None, comment=decoded[1:].strip()))
                else:
                    name, _, value = decoded.partition(":")
                    fields[name] = value[1:] if value.startswith(" ") else value
    except OSError:
        pass
    sink.put(END)


def ending(stream: Stream) -> list[Message]:
    """The messages up to the stream's end, which must come within ``WAIT`` seconds."""
    messages = []
    while (message := stream.next(WAIT)) is not END:
        messages.append(message)
    return messages


def assert_ends_with_a_retry_hint(messages: list[Message]) -> None:
    """The last message is the ``retry`` of a stream whose process stops (``sse.closing_frame``)."""
    assert messages, "the stream ended without its closing retry"
    retry = messages[-1].retry
    assert retry is not None, messages[-1]
    low, high = sse.CLOSING_RETRY_MS
    assert low <= int(retry) <= high


def open_stream(server: Server, path: str, *, token: str | None = None, **headers: str) -> Stream:
    """GET ``path`` as a raw HTTP/1.1 request; the answer's messages arrive on a queue."""
    sock = socket.create_connection((HOST, server.port), timeout=WAIT)
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "Accept: text/event-stream"]
    if token is not None:
        lines.append(f"Authorization: Token {token}")
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        more = sock.recv(65536)
        assert more, "the server closed the connection without an answer"
        head += more
    head, _, rest = head.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split()[1])
    answer = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    if status != 200:
        length = int(answer.get("content-length", "0"))
        while len(rest) < length:
            rest += sock.recv(65536)
        sock.close()
        return Stream(status, answer, json.loads(rest[:length] or b"null"))
    stream = Stream(status, answer, None, sock=sock)
    sock.settimeout(None)
    reader = threading.Thread(target=_read_messages, args=(sock, rest, stream.messages))
    reader.daemon = True
    reader.start()
    first = stream.next()
    assert first.comment is None and first.event is None, first  # the opening ``retry``
    if path.startswith(PLAYER_STREAM):  # then the snapshot of where the player stands
        stream.snapshot = stream.next()
        assert stream.snapshot.event == "snapshot", stream.snapshot
    return stream


@dataclass
class Seat:
    user: User
    token: str


# --- playing a game over HTTP while streams watch it -----------------------------------------

GAMES = "/api/v1/games/"


def new_game(server: Server, seats: list[Seat], **settings: Any) -> str:
    status, body = server.request(
        "POST", GAMES, seats[0].token, {"max_players": len(seats), **settings}
    )
    assert status == 201, body
    for seat in seats[1:]:
        status, body = server.request("POST", f"{GAMES}{body['id']}/join/", seat.token)
        assert status == 200, body
    assert body["status"] == "active"
    return str(body["id"])


def view(server: Server, game: str, seat: Seat) -> dict[str, Any]:
    status, body = server.request("GET", f"{GAMES}{game}/", seat.token)
    assert status == 200, body
    return dict(body)


def play(server: Server, game: str, seats: list[Seat], rng: random.Random, moves: int) -> int:
    """Play ``moves`` legal actions over HTTP (whoever must act); return the game's version."""
    version = view(server, game, seats[0])["version"]
    for _ in range(moves):
        actor = view(server, game, seats[0])["round"]["current_seat"]
        legal = view(server, game, seats[actor])["you"]["legal_actions"]
        status, body = server.request(
            "POST", f"{GAMES}{game}/actions/", seats[actor].token, rng.choice(legal)
        )
        assert status == 200, body
        version = body["version"]
        if body["status"] != "active":
            break
    return int(version)


def event_log(server: Server, game: str, seat: Seat) -> list[dict[str, Any]]:
    status, body = server.request("GET", f"{GAMES}{game}/events/?after=0&limit=500", seat.token)
    assert status == 200, body
    return list(body["events"])


def as_log(messages: list[Message]) -> list[dict[str, Any]]:
    for message in messages:
        assert message.id == str(message.json["seq"]) and message.event == message.json["type"]
    return [message.json for message in messages]


def watch(server: Server, game: str, seat: Seat, streams: list[Stream], query: str = "") -> Stream:
    stream = open_stream(server, f"{GAMES}{game}/stream/{query}", token=seat.token)
    assert stream.status == 200, stream.body
    assert stream.headers["content-type"].startswith("text/event-stream")
    streams.append(stream)
    return stream


def hidden_cards_shown(frame: dict[str, Any], seat: int | None) -> bool:
    """Does ``frame`` show cards that ``seat`` (None: a spectator) may not see?"""
    data = frame["data"]
    if frame["type"] == "cards_drawn":
        return "cards" in data and frame["seat"] != seat
    if frame["type"] == "round_started":
        return "deck" in data or ("hand" in data and seat is None)
    if frame["type"] in ("pile_reshuffled", "forfeited"):
        return "draw_pile" in data
    if "hash" in frame:  # the hash of an event that hides a card tells the card
        return True
    return frame["type"] == "game_started" and ("seed" in data or "salt" in data)
