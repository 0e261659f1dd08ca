"""Bytes that are not an HTTP request, sent over a socket to the real servers: the Procfile's web
process (gunicorn's uvicorn workers, httptools), ``make run``'s (``unoservice.serve``), and
uvicorn's pure-Python h11 protocol, which it takes where httptools is not installed. uvicorn
answered them itself, ``text/plain`` "Invalid HTTP request received."; they get the API's JSON
error now, 400 ``invalid`` with a ``detail``, and the connection closes. So does docker's nginx,
which reads a request before the service does (it answered its HTML page)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from bench.frontend import running
from tests.support.streams import (
    HOST,
    KEEPALIVE,
    Server,
    make_run_server,
    run_server,
)
from unoservice.errors import error_body
from unoservice.http_protocols import DETAIL, JsonErrorsH11

WAIT = 30.0

MALFORMED = {
    "a request line that is not one": b"GARBAGE\r\n\r\n",
    "a header without a colon": b"GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
    "a control character in a header": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n",
    "a length that is not a number": (
        b"POST /api/v1/players/ HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n{}"
    ),
    "a space in a header's name": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX Y: z\r\n\r\n",
}
# h11 and nginx take a control character in a header's value (their rules are laxer there than
# httptools'): the request goes on to the service (nginx's to the workers, which refuse it).
READ_BY_NONE = {k: v for k, v in MALFORMED.items() if k != "a control character in a header"}


def answer_to(port: int, raw: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send ``raw`` on a new connection and read the answer to the end: the server closes it
    (the test fails on the timeout otherwise). The status line, the headers, the body."""
    with socket.create_connection((HOST, port), timeout=WAIT) as sock:
        sock.sendall(raw)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def assert_json_refusal(port: int, raw: bytes) -> None:
    status, headers, body = answer_to(port, raw)
    assert status == "HTTP/1.1 400 Bad Request", (status, body)
    assert headers["content-type"] == "application/json", headers
    assert int(headers["content-length"]) == len(body)
    assert headers["connection"] == "close"
    # The same words from every server (docker/nginx.conf says them again: kept equal here).
    assert json.loads(body) == error_body("invalid", DETAIL), body


@pytest.fixture(scope="module")
def procfile_server(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """``gunicorn -c python:unoservice.gunicorn_asgi unoservice.asgi:application``."""
    yield from run_server(django_db_blocker, tmp_path_factory, KEEPALIVE)


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_the_procfile_server_refuses_malformed_http_with_json(
    procfile_server: Server, raw: bytes
) -> None:
    assert_json_refusal(procfile_server.port, raw)


def test_the_procfile_server_still_serves_a_request_after_refusing_one(
    procfile_server: Server,
) -> None:
    assert_json_refusal(procfile_server.port, MALFORMED["a request line that is not one"])
    status, body = procfile_server.request("GET", "/healthz")
    assert status == 200, body


def test_make_runs_server_refuses_malformed_http_with_json(tmp_path: Path) -> None:
    with make_run_server(tmp_path) as server:
        for raw in MALFORMED.values():
            assert_json_refusal(server.port, raw)


async def _nothing(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("a malformed request reached the application")


def test_the_h11_protocol_refuses_malformed_http_with_json() -> None:
    """uvicorn's h11 protocol (no httptools), serving on a socket that listens before the
    server starts: a connection waits in its backlog, nothing is polled."""
    listening = socket.socket()
    listening.bind((HOST, 0))
    listening.listen()
    config = uvicorn.Config(_nothing, http=JsonErrorsH11, lifespan="off", log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        for raw in READ_BY_NONE.values():
            assert_json_refusal(listening.getsockname()[1], raw)
    finally:
        server.should_exit = True
        thread.join(WAIT)
        listening.close()


def test_nginx_refuses_malformed_http_with_json() -> None:
    """docker/nginx.conf, run as bench/frontend.py runs it (tests/ops/test_proxy.py): what nginx
    cannot read it refuses itself; a control character in a header's value it passes on, to
    the service behind it."""
    with running(nginx=True) as front:
        for raw in READ_BY_NONE.values():
            assert_json_refusal(front.port, raw)
        status, _, body = answer_to(
            front.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        assert status == "HTTP/1.1 200 OK", body


# A browser's (or a scanner's) request to open a WebSocket, on a path of the API (``close``: the
# answer ends the connection, which the reader waits for).
UPGRADE = (
    b"GET /api/v1/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, close\r\n"
    b"Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)


def assert_served_as_http(port: int) -> None:
    """The service has no WebSocket: the request is answered as the GET it also is (the game
    list's refusal without a sign-in, JSON). uvicorn handed it to Django as a WebSocket, which
    Django does not take, and answered 500 in plain text."""
    status, headers, body = answer_to(port, UPGRADE)
    assert status == "HTTP/1.1 401 Unauthorized", (status, body)
    assert headers["content-type"] == "application/json", headers
    assert json.loads(body)["code"] == "not_authenticated"


def test_the_procfile_server_serves_a_websocket_upgrade_as_a_plain_request(
    procfile_server: Server,
) -> None:
    assert_served_as_http(procfile_server.port)


def test_make_runs_server_serves_a_websocket_upgrade_as_a_plain_request(tmp_path: Path) -> None:
    with make_run_server(tmp_path) as server:
        assert_served_as_http(server.port)
