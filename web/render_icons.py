"""The PNG icons, rendered from our SVG ones by Debian's Chromium (``make icons``).

The SVG icons (``app/icons/*.svg``) are the drawings; these PNGs exist for the clients that do
not read an SVG icon: iOS's home screen takes only a PNG ``apple-touch-icon`` (opaque: it rounds
the corners itself, so it is drawn from the maskable icon's full square), and older Android
browsers want PNG sizes in the manifest. Run it again after a change to an SVG, and commit the
PNGs with it.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent / "app" / "icons"
CHROMIUM = "/usr/bin/chromium"
# (drawing, size in px, file): what the manifest and index.html name.
RENDERS = (
    ("uno-maskable.svg", 180, "apple-touch-icon.png"),
    ("uno.svg", 192, "uno-192.png"),
    ("uno.svg", 512, "uno-512.png"),
)


def render() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking", "--disable-sync"],
        )
        try:
            for drawing, size, name in RENDERS:
                page = browser.new_page(viewport={"width": size, "height": size})
                svg = (ICONS / drawing).read_text()
                page.set_content(
                    "<style>html,body{margin:0;background:transparent}"
                    "svg{display:block;width:100vw;height:100vh}</style>" + svg
                )
                page.screenshot(path=str(ICONS / name), omit_background=True)
                page.close()
                print(f"{name}: {size}x{size} from {drawing}")
        finally:
            browser.close()


if __name__ == "__main__":
    render()
