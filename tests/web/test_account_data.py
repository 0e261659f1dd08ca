"""`Your data` on the profile: `Download my data` saves the account's whole file (`GET
/api/v1/players/me/export/`) as `uno-<name>.json`, with the player's games in it, and says so."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import Site


def test_a_player_downloads_their_data_from_the_profile(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    register(page, "ines")
    game = site.api("POST", "/api/v1/games/", site.token("ines"), {"max_players": 3}, status=201)
    page.get_by_role("link", name="ines").click()
    section = page.locator("section.account-data")
    expect(section.get_by_role("heading", name="Your data")).to_be_visible()

    with page.expect_download() as download:
        section.get_by_role("button", name="Download my data").click()

    saved = download.value
    assert saved.suggested_filename == "uno-ines.json"
    data = json.loads(Path(saved.path()).read_text(encoding="utf-8"))
    assert data["profile"]["username"] == "ines"
    assert [g["id"] for g in data["games"]] == [game["id"]]
    assert len(data["sessions"]) == 2  # the page's and the test's own sign-in
    expect(section.get_by_role("status")).to_have_text("Your data is downloaded: uno-ines.json.")
