"""Screenshots for the README, taken by the tests at phone and desktop width into
docs/screenshots/, made small (a 128-colour palette, compressed) so the repository stays light."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import Locator, Page, ViewportSize

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS: dict[str, ViewportSize] = {
    "phone": {"width": 375, "height": 812},
    "desktop": {"width": 1280, "height": 800},
}
MOST = 100_000  # bytes a screenshot may take
COLOURS = 128


def small_png(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=COLOURS, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def take(page: Page, name: str, showing: Locator | None = None) -> list[Path]:
    """``docs/screenshots/<name>-phone.png`` and ``-desktop.png`` of what ``page`` shows now
    (at desktop width, scrolled to ``showing`` if given: the phone's shot is the whole page);
    the page's own size comes back afterwards."""
    before = page.viewport_size
    written = []
    try:
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)
            # The page lays itself out again at the new width before the shot.
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
            if showing is not None and label == "desktop":
                showing.scroll_into_view_if_needed()
            shot = small_png(page.screenshot(full_page=label == "phone", animations="disabled"))
            assert len(shot) < MOST, f"{name}-{label}: {len(shot)} bytes"
            path = SHOTS / f"{name}-{label}.png"
            SHOTS.mkdir(parents=True, exist_ok=True)
            path.write_bytes(shot)
            written.append(path)
    finally:
        if before is not None:
            page.set_viewport_size(before)
    return written
