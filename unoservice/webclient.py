"""The web client's root files: ``/`` (its page), ``/sw.js`` (its service worker) and
``/manifest.webmanifest`` (what a phone needs to install it).

The client lives in ``web/`` (plain ES modules, no build step). WhiteNoise serves its assets
under ``/app/`` (``unoservice.storage.StaticFilesMiddleware``, the icons too); these are served
here because they sit at the root: the page at ``/``, the service worker at ``/sw.js`` so that its
scope is the whole site, and the manifest beside them (its ``start_url`` and ``scope`` are ``/``).
All are sent with ``no-cache`` so a new deployment is seen at once.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponseBase

from unoservice.errors import SERVICE_CODES, error_page, not_found

# Where WhiteNoise serves web/app/ (unoservice.storage.StaticFilesMiddleware).
ASSETS = "/app/"


def _serve(request: HttpRequest, name: str, content_type: str) -> HttpResponseBase:
    if request.method not in ("GET", "HEAD"):
        answer = error_page(405, "method_not_allowed", SERVICE_CODES["method_not_allowed"].meaning)
        answer["Allow"] = "GET, HEAD"
        return answer
    path = Path(settings.UNO_WEB_ROOT) / name
    if not path.is_file():  # an image built without the client
        return not_found(request, Http404())
    response = FileResponse(path.open("rb"), content_type=content_type)
    response["Cache-Control"] = "no-cache"
    return response


def index(request: HttpRequest) -> HttpResponseBase:
    return _serve(request, "index.html", "text/html; charset=utf-8")


def service_worker(request: HttpRequest) -> HttpResponseBase:
    response = _serve(request, "sw.js", "text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def manifest(request: HttpRequest) -> HttpResponseBase:
    return _serve(request, "manifest.webmanifest", "application/manifest+json")
