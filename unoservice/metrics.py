"""Prometheus metrics: HTTP requests, the game's own counters, and the ``/metrics`` view.

- ``uno_http_requests_total{method,route,status}`` and
  ``uno_http_request_duration_seconds{method,route}``: every request, by URL pattern
  (``MetricsMiddleware``).
- ``uno_games{status}``: games by status, counted from the database at scrape time.
- ``uno_game_actions_total{action}``: actions players made; ``uno_game_events_total{type}``: events
  appended to the logs; ``uno_game_timeouts_total``: turns the server played for a player who ran
  out of time; ``uno_game_forfeits_total{reason}``: seats forfeited (timeout or resign).
- ``uno_refused_actions_total{code}``: actions refused, by error code;
  ``uno_api_errors_total{code}``: every error answer of the API.
- ``uno_subscriber_failures_total{subscriber}``: reactions to a committed write that failed
  (``service.facts``): the write stands, the other reactions ran.

With ``PROMETHEUS_MULTIPROC_DIR`` set (gunicorn with several workers, the Celery worker's pool)
each process writes its samples there and ``/metrics`` adds them up; the directory must exist and
be emptied when the server starts (the gunicorn config and the image's entrypoint do both).

The hooks the games app calls (``record_action``, ``record_events``) also write the log lines an
action leaves: game, seat, action and resulting version, never a card.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.registry import Collector

from unoservice.logging import request_id_var

log = logging.getLogger("unoservice.games")
# The classic text format, which every Prometheus version reads (the names here need no escaping).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# In multiprocess mode every process writes files there from its first metric on: make sure the
# directory exists (a one-off `manage.py` command must not fail for want of it).
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

HTTP_REQUESTS = Counter(
    "uno_http_requests",
    "HTTP requests by method, URL pattern and status.",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "uno_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and URL pattern.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
GAME_ACTIONS = Counter("uno_game_actions", "Actions players made, by action.", ["action"])
GAME_EVENTS = Counter("uno_game_events", "Events appended to game logs, by type.", ["type"])
GAME_TIMEOUTS = Counter("uno_game_timeouts", "Turns played by the server for a player out of time.")
GAME_FORFEITS = Counter("uno_game_forfeits", "Seats forfeited, by reason.", ["reason"])
REFUSED_ACTIONS = Counter("uno_refused_actions", "Actions refused, by error code.", ["code"])
API_ERRORS = Counter("uno_api_errors", "Error answers of the API, by error code.", ["code"])
SUBSCRIBER_FAILURES = Counter(
    "uno_subscriber_failures",
    "Reactions to a committed write that failed (the write stands), by subscriber.",
    ["subscriber"],
)

FORFEIT_REASONS = frozenset({"timeout", "resign"})


# --- hooks called by the games app --------------------------------------------------------------


def record_action(*, game_id: object, seat: int, action: str, version: int) -> None:
    """A player's action was applied (inside the write's transaction): once it commits, count it
    and log game, seat, action and resulting version (never a card)."""

    request_id = request_id_var.get()

    def count() -> None:
        GAME_ACTIONS.labels(action=action).inc()
        log.info(
            "action",
            extra={
                "game": str(game_id),
                "seat": seat,
                "action": action,
                "version": version,
                "request_id": request_id,
            },
        )

    transaction.on_commit(count)


def record_events(*, game_id: object, version: int, events: Sequence[Mapping[str, Any]]) -> None:
    """Events were appended (inside the write's transaction): count them once it commits."""
    seen = [(e["type"], e.get("seat"), (e.get("data") or {}).get("reason")) for e in events]
    first = version - len(seen) + 1
    request_id = request_id_var.get()

    def count() -> None:
        for seq, (type_, seat, reason) in enumerate(seen, start=first):
            GAME_EVENTS.labels(type=type_).inc()
            if type_ == "timed_out":
                GAME_TIMEOUTS.inc()
                log.info(
                    "timeout",
                    extra={
                        "game": str(game_id),
                        "seat": seat,
                        "version": seq,
                        "request_id": request_id,
                    },
                )
            elif type_ == "forfeited":
                label = reason if reason in FORFEIT_REASONS else "other"
                GAME_FORFEITS.labels(reason=label).inc()
                log.info(
                    "forfeit",
                    extra={
                        "game": str(game_id),
                        "seat": seat,
                        "reason": label,
                        "version": seq,
                        "request_id": request_id,
                    },
                )

    transaction.on_commit(count)


def record_subscriber_failure(subscriber: str) -> None:
    SUBSCRIBER_FAILURES.labels(subscriber=subscriber).inc()


def record_error(code: str, *, action: bool) -> None:
    """The API answered with an error ``code`` (``action``: to an action)."""
    API_ERRORS.labels(code=code).inc()
    if action:
        REFUSED_ACTIONS.labels(code=code).inc()


# --- figures counted from the database at scrape time (``games.metrics`` registers its own) ---

SCRAPED = CollectorRegistry(auto_describe=False)
_scraped: set[type[Collector]] = set()


def scrape(collector: Collector) -> None:
    """Count ``collector`` at every scrape (one of each kind, however often an app is readied)."""
    if type(collector) not in _scraped:
        _scraped.add(type(collector))
        SCRAPED.register(collector)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def process_registry() -> CollectorRegistry:
    """This process's metrics, or every process's when they share PROMETHEUS_MULTIPROC_DIR."""
    if multiprocess_dir() is None:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def exposition() -> bytes:
    return generate_latest(process_registry()) + generate_latest(SCRAPED)


@require_safe
@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: the Prometheus text format. ``UNO_METRICS_TOKEN`` set: Bearer only."""
    token = settings.UNO_METRICS_TOKEN
    if token and not constant_time_compare(
        request.headers.get("Authorization", ""), f"Bearer {token}"
    ):
        return HttpResponse("metrics need a bearer token\n", status=401, content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE)


def serve_worker_metrics(port: int) -> None:
    """The Celery worker's own metrics endpoint (its pool's processes count the timeouts)."""
    start_http_server(port, registry=process_registry())
