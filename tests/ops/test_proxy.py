"""nginx in front of gunicorn, both real, on loopback: the deployed docker/nginx.conf and
unoservice/gunicorn_conf.py (issue 11: sixteen clients that sent headers and half a body stopped
/healthz for as long as they stayed open).

gunicorn runs with one worker of two threads here, so that a few slow clients are enough to
hold every thread. nginx is Debian's ``nginx`` package (.ci/run installs it); without it these
tests fail, they are not skipped.
"""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from bench.frontend import HOST, healthz_wait, nginx_binary, running, slow_clients
from tests.support.streams import KEEPALIVE, free_port, start_server, stop_server

# More slow clients than gunicorn has threads (2).
SLOW = 6
# Bounds, not timings: how long a probe may wait before it counts as unanswered.
ANSWERED_WITHIN = 20.0
STUCK_FOR = 3.0
REGISTER = "/api/v1/players/"


@pytest.fixture(autouse=True)
def _nginx_installed() -> None:
    if nginx_binary() is None:
        pytest.fail("nginx is not installed: apt-get install nginx (.ci/run does)")


def test_slow_clients_stop_gunicorn_alone() -> None:
    """The probe reproduces the hole: without nginx, /healthz waits behind the slow clients."""
    with running(nginx=False) as front, slow_clients(front.port, SLOW):
        assert healthz_wait(front.port, STUCK_FOR) is None


def test_slow_clients_wait_in_nginx_not_in_gunicorn() -> None:
    with running(nginx=True) as front, slow_clients(front.port, SLOW * 3):
        assert healthz_wait(front.port, ANSWERED_WITHIN) is not None


def post(port: int, body: bytes, *, chunked: bool) -> tuple[int, dict[str, Any]]:
    """POST a registration; a chunked one in two chunks, as a streaming client sends it."""
    web = http.client.HTTPConnection(HOST, port, timeout=ANSWERED_WITHIN)
    try:
        headers = {"Content-Type": "application/json"}
        if chunked:
            web.request("POST", REGISTER, iter((body[:9], body[9:])), headers, encode_chunked=True)
        else:
            web.request("POST", REGISTER, body, headers)
        answer = web.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        web.close()


def registration(name: str) -> bytes:
    return json.dumps({"username": name, "password": "a sturdy pass phrase 42"}).encode()


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_arrives_whole_through_nginx_and_is_refused_by_gunicorn_alone() -> None:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"

    with running(nginx=True, env={"DATABASE_URL": url}) as front:
        direct = post(front.gunicorn_port, registration("direct"), chunked=True)
        proxied = post(front.port, registration("proxied"), chunked=True)

    assert direct[0] == 411 and direct[1]["code"] == "length_required", direct
    assert proxied[0] == 201 and proxied[1]["username"] == "proxied", proxied
    assert list(User.objects.values_list("username", flat=True)) == ["proxied"]


@pytest.mark.django_db(transaction=True)
def test_the_asgi_web_process_refuses_a_chunked_body_as_gunicorns_threads_do(
    tmp_path: Path,
) -> None:
    """The Procfile's web process (ASGI) read a chunked body whole and took it, where gunicorn's
    threads answer 411: the contract's answer (docs/api.md) depended on the server."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"

    web = start_server(url, free_port(), tmp_path / "web.log", KEEPALIVE)
    try:
        chunked = post(web.port, registration("chunked"), chunked=True)
        sized = post(web.port, registration("sized"), chunked=False)
    finally:
        stop_server(web)

    assert chunked[0] == 411 and chunked[1]["code"] == "length_required", chunked
    assert sized[0] == 201 and sized[1]["username"] == "sized", sized
    assert list(User.objects.values_list("username", flat=True)) == ["sized"]


def test_nginx_refuses_a_body_over_the_limit_with_the_apis_error_body() -> None:
    body = b"{" + b" " * (300 * 1024) + b"}"
    with running(nginx=True) as front:
        status, answer = post(front.port, body, chunked=False)

    assert (status, answer["code"]) == (413, "request_too_large")
