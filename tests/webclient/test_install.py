"""The web client installs on a phone (issue 25): its manifest at ``/manifest.webmanifest`` with
its own content type, icons drawn in SVG under ``/app/icons/`` (and PNGs rendered from them for
the clients that read no SVG: ``web/render_icons.py``), and a service worker that keeps
the whole shell (every file of ``web/app/``) for offline use and never the API."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from PIL import Image

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
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    assert client.post("/manifest.webmanifest").status_code == 405


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG", image.format
    return image


def test_the_icons_are_svg_drawings_and_pngs_of_the_sizes_named(client: Client) -> None:
    manifest = json.loads((web() / "manifest.webmanifest").read_text())
    svgs = [icon for icon in manifest["icons"] if icon["type"] == "image/svg+xml"]
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert len(svgs) + len(pngs) == len(manifest["icons"])
    assert sorted(icon["purpose"] for icon in svgs) == ["any", "maskable"]
    for icon in svgs:
        assert icon["sizes"] == "any"
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon
        assert answer["Content-Type"].startswith("image/svg+xml")
        assert body(answer).lstrip().startswith(b"<svg")
    # Android's installers ask for 192 and 512 px.
    assert sorted(icon["sizes"] for icon in pngs) == ["192x192", "512x512"]
    for icon in pngs:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon
        assert answer["Content-Type"] == "image/png"
        width, height = png(body(answer)).size
        assert f"{width}x{height}" == icon["sizes"], icon


def test_the_page_names_an_opaque_png_for_an_iphones_home_screen(client: Client) -> None:
    """iOS takes only a PNG ``apple-touch-icon`` and rounds its corners itself: 180 px, its
    corners painted (the maskable drawing's full square, not a transparent margin)."""
    page = (web() / "index.html").read_text()
    found = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert found, "index.html links an apple-touch-icon"
    answer = client.get(found.group(1))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/png"
    image = png(body(answer))
    assert image.size == (180, 180)
    corner = image.convert("RGBA").getpixel((0, 0))
    assert isinstance(corner, tuple) and corner[3] == 255, corner  # the top-left corner is opaque


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
