"""Probes for load balancers and orchestrators: ``/healthz`` and ``/readyz``.

- ``GET /healthz``: the process is up and serving; touches nothing else. 200 ``{"status": "ok"}``.
- ``GET /readyz``: the database answers ``SELECT 1`` and, when a broker is configured, the broker
  accepts a connection (within ``UNO_READYZ_TIMEOUT`` seconds). 200 when both do; 503 with the
  error body's ``code`` and ``detail`` and, in ``checks``, which dependency failed.

Neither needs a token; both are plain Django views, so they stay out of the API's OpenAPI schema.
Failures are logged with their cause; the answer names the dependency only.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from unoservice.celery import app as celery_app

log = logging.getLogger("unoservice.ops")

OK, SKIPPED, FAILED = "ok", "skipped", "unavailable"


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def check_database() -> str:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        log.warning("readiness: the database did not answer", exc_info=True)
        return FAILED
    return OK


def check_broker() -> str:
    url = settings.CELERY_BROKER_URL
    if not url:
        return SKIPPED  # tasks run in-process: there is no broker to wait for
    timeout = settings.UNO_READYZ_TIMEOUT
    try:
        with celery_app.connection_for_read(
            url,
            connect_timeout=timeout,
            transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
        ) as connection:
            connection.ensure_connection(max_retries=0, timeout=timeout)
    except Exception:
        log.warning("readiness: the broker did not answer", exc_info=True)
        return FAILED
    return OK


@require_safe
@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "broker": check_broker()}
    failed = [name for name, result in checks.items() if result == FAILED]
    if failed:
        body = {
            "status": FAILED,
            "code": "not_ready",
            "detail": f"Not answering: {', '.join(failed)}.",
            "checks": checks,
        }
        return JsonResponse(body, status=503)
    return JsonResponse({"status": "ok", "checks": checks})
