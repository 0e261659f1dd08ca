"""The web client (issue 14) is served by the service itself: the page at ``/``, its service
worker at ``/sw.js`` and its assets under ``/app/``, each with its content type, and nothing of
``web/`` beyond them (the client's node tooling is not for serving)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def body(answer: object) -> bytes:
    return b"".join(answer.streaming_content) if hasattr(answer, "streaming_content") else b""


def test_the_page_is_served_at_the_root_and_names_its_assets(client: Client) -> None:
    answer = client.get("/")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/html; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache", "a new deployment is seen at once"
    page = body(answer).decode()
    assert '<script type="module" src="/app/main.js">' in page
    for asset in re.findall(r'(?:src|href)="(/app/[^"]+)"', page):
        assert client.get(asset).status_code == 200, asset


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/app/main.js", "text/javascript"),
        ("/app/table.js", "text/javascript"),
        ("/app/i18n.js", "text/javascript"),
        ("/app/style.css", "text/css"),
    ],
)
def test_the_assets_are_served_with_their_content_types(
    client: Client, path: str, content_type: str
) -> None:
    answer = client.get(path)

    assert answer.status_code == 200
    assert answer["Content-Type"].split(";")[0].strip() == content_type
    assert body(answer) == (settings.UNO_WEB_ROOT / path.removeprefix("/")).read_bytes()


def test_the_service_worker_is_served_at_the_root_for_the_whole_site(client: Client) -> None:
    answer = client.get("/sw.js")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Service-Worker-Allowed"] == "/"
    assert b"addEventListener('push'" in body(answer)


@pytest.mark.parametrize(
    "path", ["/package.json", "/app/../package.json", "/types/schema.d.ts", "/HOOKS.md"]
)
def test_nothing_else_of_web_is_served(client: Client, path: str) -> None:
    answer = client.get(path)

    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_the_page_is_not_posted_to(client: Client) -> None:
    refused = client.post("/")
    assert refused.status_code == 405
    assert refused.json()["code"] == "method_not_allowed"
    assert refused["Allow"] == "GET, HEAD"
    assert client.get("/api/v1/games/").status_code == 401, "the API is where it was"


def test_the_client_is_counted_under_its_own_routes(client: Client) -> None:
    """The metrics name the page `/` and the assets `<static>`, not `<unmatched>` (a 404)."""
    from prometheus_client import REGISTRY

    def count(route: str) -> float:
        labels = {"method": "GET", "route": route, "status": "200"}
        return REGISTRY.get_sample_value("uno_http_requests_total", labels) or 0.0

    page, assets = count("/"), count("<static>")
    client.get("/")
    client.get("/app/main.js")

    assert count("/") == page + 1
    assert count("<static>") == assets + 1
