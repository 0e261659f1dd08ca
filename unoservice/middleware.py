"""Request middleware: a request id on every request and log line, one log line and metrics each.

``RequestIdMiddleware`` takes the client's ``X-Request-ID`` (when it looks like an id) or makes
one, makes it the request id of every log line written while the request runs, sends it back in
the response's ``X-Request-ID`` and writes one ``request`` log line: method, path (never the query
string), URL pattern, status, duration and the caller's user id. Probes and scrapes
(``/healthz``, ``/readyz``, ``/metrics``) are logged at DEBUG.

``ChunkedBodyMiddleware`` refuses a body sent with ``Transfer-Encoding: chunked`` with 411
``length_required``: a WSGI server passes such a body without a ``Content-Length``, and Django then
reads it as empty (a chunked action was answered "'action' must be one of …"). The ASGI web
process (``asgi_bridge``) reads such a body whole but passes it without a length too, so the
answer is the same whichever server runs the service. Behind the nginx of docker/ the question
does not arise: nginx reads the whole body and sends its length.

``BodySizeMiddleware`` refuses a body whose ``Content-Length`` is over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` with 413 ``request_too_large`` before anything reads it. Django
itself would refuse it only once a view read the body (DRF's parser does, and the admin's forms),
by raising ``RequestDataTooBig``, which its handler logs as a security event at ERROR with a
traceback: a client's oversized body is no error of the service, and the request line (status
413) already records it. The service takes no file uploads, so the limit holds for the whole body.

``CommonMiddleware`` is Django's, with the API's answers where Django's are no use to a client:
a path that lacks only its trailing slash is redirected for GET and HEAD, as Django does, but any
other method is told 404 ``not_found`` naming the path to use (a client sends a 301's POST again
as a GET, which lists where it meant to create, and under DEBUG Django raises instead: a 500);
and under DEBUG a path under ``/api/`` that matches nothing answers the API's 404 body, not
Django's HTML page (``handler404`` answers it without DEBUG).

``MetricsMiddleware`` counts and times requests by URL pattern (``route``), not by path, so ids
in paths do not multiply the series; a path that matches no pattern counts as ``<unmatched>``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase
from django.middleware import common
from django.utils.functional import SimpleLazyObject, empty

from unoservice import metrics, webclient
from unoservice.errors import error_page, not_found
from unoservice.logging import clean_request_id, request_id_var
from unoservice.parsers import declared_length

log = logging.getLogger("unoservice.request")

GetResponse = Callable[[HttpRequest], HttpResponseBase]
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
HEADER = "X-Request-ID"


def user_id_of(request: HttpRequest) -> int | None:
    """The caller's user id, if the request was authenticated; never loads a session to know."""
    user = request.__dict__.get("user")
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    return user.pk if user.is_authenticated else None


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route:
        return str(match.route)
    if match is not None and match.url_name:  # the empty route: the web client's page at /
        return "/"
    static = "/" + settings.STATIC_URL.lstrip("/")
    if request.path.startswith((static, webclient.ASSETS)):
        return "<static>"
    return "<unmatched>"


class RequestIdMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = clean_request_id(request.headers.get(HEADER))
        request.request_id = request_id  # type: ignore[attr-defined]
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[HEADER] = request_id
            log.log(
                logging.DEBUG if request.path in QUIET_PATHS else logging.INFO,
                "request",
                extra={
                    "method": request.method,
                    "path": request.path,
                    "route": route_of(request),
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    "user_id": user_id_of(request),
                },
            )
            return response
        finally:
            request_id_var.reset(token)


class MetricsMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        method = request.method if request.method in METHODS else "other"
        route = route_of(request)
        metrics.HTTP_LATENCY.labels(method=method, route=route).observe(
            time.perf_counter() - started
        )
        metrics.HTTP_REQUESTS.labels(
            method=method, route=route, status=str(response.status_code)
        ).inc()
        return response


class ChunkedBodyMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        encodings = request.META.get("HTTP_TRANSFER_ENCODING", "")
        if "chunked" in encodings.lower() and not request.META.get("CONTENT_LENGTH"):
            return error_page(
                411,
                "length_required",
                "A chunked request body is not read here: send it with a Content-Length.",
            )
        return self.get_response(request)


class CommonMiddleware(common.CommonMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code == 404:
            if request.method not in ("GET", "HEAD") and self.should_redirect_with_slash(request):
                return error_page(
                    404,
                    "not_found",
                    f"No such path: {request.path}. Paths end with a slash: {request.path}/",
                )
            if (
                settings.DEBUG
                and request.path.startswith("/api/")
                and response.get("Content-Type", "").startswith("text/html")
            ):
                return not_found(request, Http404())
        return super().process_response(request, response)


class BodySizeMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and declared_length(request.META) > limit:
            return error_page(
                413, "request_too_large", f"The request body is larger than {limit} bytes."
            )
        return self.get_response(request)
