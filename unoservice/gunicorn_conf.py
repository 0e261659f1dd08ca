"""gunicorn's settings: ``gunicorn -c python:unoservice.gunicorn_conf unoservice.wsgi:application``.

From the environment:

- ``PORT``: the port to bind on every interface (8000).
- ``WEB_CONCURRENCY``: worker processes (2); about 2 per core of the machine or container.
- ``GUNICORN_THREADS``: threads per worker (8). Threads, not processes, wait out the event log's
  long polls (``wait`` up to 30 s), so a handful of waiting clients cannot block the server.
- ``GUNICORN_TIMEOUT``: seconds before a silent worker is restarted (60, above the longest poll).
- ``PROMETHEUS_MULTIPROC_DIR``: where the workers write their metrics for ``/metrics`` to add up;
  emptied when gunicorn starts, and each dead worker's gauges are dropped.

gunicorn's own log lines (boot, worker restarts) use the same format as the service's
(``LOG_FORMAT``); there is no access log, since the service logs each request itself with its
request id.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from unoservice.logging import logging_config


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


def _log_format() -> str:
    debug = (os.environ.get("DJANGO_DEBUG") or "1").strip().lower() in {"1", "true", "yes", "on"}
    return (os.environ.get("LOG_FORMAT") or ("text" if debug else "json")).strip().lower()


wsgi_app = "unoservice.wsgi:application"
bind = f"0.0.0.0:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", 2)
worker_class = "gthread"
threads = _int("GUNICORN_THREADS", 8)
timeout = _int("GUNICORN_TIMEOUT", 60)
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then, so a slow leak never grows unbounded. The application is loaded
# once, in the arbiter, and each worker is a fork of it: a recycled worker starts in milliseconds
# instead of importing Django anew (about 0.4 s of CPU each time, timed by hand; in
# bench/service.py, at 1,000 requests/s, every worker was replaced every 20 s).
preload_app = True
max_requests = _int("GUNICORN_MAX_REQUESTS", 5000)  # 0: never
max_requests_jitter = 500
accesslog = None
errorlog = "-"
worker_tmp_dir = "/dev/shm" if Path("/dev/shm").is_dir() else None
# No control socket: nothing here uses `gunicornc`, and the container's home is read-only.
control_socket_disable = True

logconfig_dict = logging_config(
    _log_format(),
    "INFO",
    {
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        # Off: the service logs each request itself (with its id, without the query string).
        "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
    },
)


def on_starting(server: Any) -> None:
    """Empty the metrics directory: samples of a previous run's workers must not add up."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink(missing_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
