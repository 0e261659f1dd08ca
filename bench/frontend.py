"""The deployed front of the service on loopback: gunicorn alone, or docker/nginx.conf before it.

Used by tests/ops/test_proxy.py (does nginx keep /healthz answering while slow clients hold
connections?) and by bench/faults.py's ``slow`` probe (how long /healthz waits, with and without
nginx). Both run the real programs: gunicorn with the deployed ``unoservice/gunicorn_conf.py``,
and the nginx of the machine (Debian's ``nginx`` package; .ci/run installs it) with the
deployed ``docker/nginx.conf``, rewritten only where loopback differs from the compose network.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_CONF = ROOT / "docker" / "nginx.conf"
HOST = "127.0.0.1"
# What the slow clients of issue 11 sent: headers announcing 100 bytes, then 13 of them.
SLOW_HEAD = (
    b"POST /api/v1/players/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n"
)
SLOW_BODY = b'{"username": '
DAEMON_OFF = "daemon off;"


# The service's limits, off for benchmarks whose bots create many games with seeds of their own
# (the tests turn the same off in tests/conftest.py). Merge into a benchmark stack's environment.


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def nginx_config(listen: int, upstream: int, workdir: Path) -> str:
    """docker/nginx.conf with loopback ports and temporary paths of ``workdir``."""
    text = NGINX_CONF.read_text()
    text, listens = re.subn(r"(?m)^(\s*)listen \S+;", rf"\1listen {HOST}:{listen};", text)
    text, servers = re.subn(r"(?m)^(\s*)server web:\d+;", rf"\1server {HOST}:{upstream};", text)
    text, pids = re.subn(r"(?m)^pid \S+;", f"pid {workdir / 'nginx.pid'};", text)
    text, temps = re.subn(r"(?m)^(\s*)(\w+_temp_path) /tmp/(\S+);", rf"\1\2 {workdir}/\3;", text)
    assert (listens, servers, pids, temps) == (1, 1, 1, 5), "docker/nginx.conf changed shape"
    if os.geteuid() == 0:
        # As root, nginx's workers become `nobody`, who may not enter a private temporary
        # directory; in the container they write /tmp.
        workdir.chmod(0o755)
    return text


def wait_http(port: int, path: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing answered {path} on port {port}") from None
            time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@dataclass
class Front:
    """Where to send requests: ``port`` is nginx's when nginx runs, else gunicorn's."""

    port: int
    gunicorn_port: int
    nginx: bool


@contextlib.contextmanager
def running(
    *, nginx: bool, workers: int = 1, threads: int = 2, env: dict[str, str] | None = None
) -> Iterator[Front]:
    """gunicorn (``workers`` processes of ``threads`` threads) on loopback, and with ``nginx``
    docker/nginx.conf before it. ``env`` adds to a debug-off environment (/healthz needs no
    database)."""
    workdir = Path(tempfile.mkdtemp(prefix="uno-front-"))
    gunicorn_port = free_port()
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "unoservice.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "front-test-only-secret-key-front-test-only-secret-key-01234",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_NUM_PROXIES": "1" if nginx else "0",
        "LOG_LEVEL": "WARNING",
        "WEB_CONCURRENCY": str(workers),
        "GUNICORN_THREADS": str(threads),
        **(env or {}),
    }
    environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "python:unoservice.gunicorn_conf",
        "--bind",
        f"{HOST}:{gunicorn_port}",
        "unoservice.wsgi:application",
    ]
    processes: list[subprocess.Popen[bytes]] = []
    try:
        log = (workdir / "gunicorn.log").open("wb")
        processes.append(
            subprocess.Popen(gunicorn, cwd=ROOT, env=environment, stdout=log, stderr=log)
        )
        wait_http(gunicorn_port, "/healthz", 60)
        port = gunicorn_port
        if nginx:
            binary = nginx_binary()
            if binary is None:
                raise RuntimeError("no nginx here: apt-get install nginx (.ci/run does)")
            port = free_port()
            conf = workdir / "nginx.conf"
            conf.write_text(nginx_config(port, gunicorn_port, workdir))
            nginx_log = (workdir / "nginx.log").open("wb")
            processes.append(
                subprocess.Popen(
                    [binary, "-e", "stderr", "-p", str(workdir), "-c", str(conf), "-g", DAEMON_OFF],
                    stdout=nginx_log,
                    stderr=nginx_log,
                )
            )
            wait_http(port, "/healthz", 30)
        yield Front(port, gunicorn_port, nginx)
    finally:
        for process in reversed(processes):
            _stop(process)
        shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def slow_clients(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections that sent headers and half a body, then nothing, while open."""
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection((HOST, port), timeout=5)
            sock.sendall(SLOW_HEAD + SLOW_BODY)
            sockets.append(sock)
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def healthz_wait(port: int, timeout: float) -> float | None:
    """Seconds until /healthz answered 200, or None if it did not within ``timeout``."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=timeout) as answer:
            return time.monotonic() - started if answer.status == 200 else None
    except OSError:
        return None
