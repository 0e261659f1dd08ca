"""The web client installs on a phone (issue 25): its manifest at ``/manifest.webmanifest`` with
its own content type, icons drawn in SVG under ``/app/icons/``, and a service worker that keeps
the whole shell (every file of ``web/app/``) for offline use and never the API."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def body(answer: object) -> bytes:
    return b"".join(answer.streaming_content) if hasattr(answer, "streaming_content") else b""


def web() -> Path:
    return Path(settings.UNO_WEB_ROOT)


def test_the_manifest_is_served_at_the_root_with_its_content_type(client: Client) -> None:
    answer = client.get("/manifest.webmanifest")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    assert answer["Cache-Control"] == "no-cache"
    manifest = json.loads(body(answer))
    assert manifest["name"] == "UNO" and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert manifest["theme_color"] and manifest["background_color"]
    assert sorted(icon["purpose"] for icon in manifest["icons"]) == ["any", "maskable"]
    assert client.post("/manifest.webmanifest").status_code == 405


def test_the_icons_are_svg_and_served(client: Client) -> None:
    manifest = json.loads((web() / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert (icon["sizes"], icon["type"]) == ("any", "image/svg+xml")
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon
        assert answer["Content-Type"].startswith("image/svg+xml")
        assert body(answer).lstrip().startswith(b"<svg")


def test_the_page_links_the_manifest_and_its_colour() -> None:
    page = (web() / "index.html").read_text()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}">', page)
    assert 'href="/app/lobby.js"' not in page, "the table page does not load the lobby"


def shell() -> list[str]:
    worker = (web() / "sw.js").read_text()
    listed = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert listed, "sw.js lists its shell in SHELL"
    return re.findall(r"'([^']+)'", listed.group(1))


def test_the_service_worker_keeps_every_file_of_the_shell(client: Client) -> None:
    files = sorted(
        f"/app/{path.relative_to(web() / 'app').as_posix()}"
        for path in (web() / "app").rglob("*")
        if path.is_file()
    )
    kept = shell()
    assert sorted(p for p in kept if p.startswith("/app/")) == files, "add new files to SHELL"
    assert {"/", "/manifest.webmanifest"} <= set(kept)
    assert not [p for p in kept if p.startswith("/api/")]
    for path in kept:
        assert client.get(path).status_code == 200, path
