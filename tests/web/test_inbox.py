"""The inbox in Chromium: the header's unread badge keeps its count on every page and through a
language or colour-blind switch (it was emptied by each, until the next notification or a
reload); a notification opened from the inbox is read."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import GAMES, Site


def badge(page: Page) -> str:
    expect(page.locator("#unread")).to_be_visible()
    return page.locator("#unread").inner_text()


def nav(page: Page, name: str) -> Locator:
    return page.get_by_role("navigation", name="Main").get_by_role("link", name=name, exact=True)


def _unread(site: Site, token: str) -> int:
    return int(site.api("GET", "/api/v1/notifications/?unread=true&page_size=1", token)["count"])


def test_the_unread_badge_stays_and_an_opened_notification_is_read(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "ana")
    ana, bea = site.token("ana"), site.register("bea")
    game = site.api("POST", GAMES, bea, {"max_players": 2}, 201)
    site.api("POST", f"{GAMES}{game['id']}/join/", ana)  # ana hears of the start (and a turn)
    unread = _unread(site, ana)
    assert unread >= 1
    page.reload()
    expect(page.locator("#unread")).to_have_text(str(unread))

    for step in (
        lambda: nav(page, "Leaderboard").click(),
        lambda: nav(page, "Tournaments").click(),
        lambda: page.get_by_role("button", name="Português").click(),
        lambda: page.get_by_role("button", name="Modo daltónico").click(),
        lambda: nav(page, "Salão").click(),
    ):
        step()
        expect(page.locator("#unread")).to_have_text(str(unread))
        expect(page.locator("#unread")).to_be_visible()

    page.goto("/#/inbox")
    note = page.locator("ul.notes li.unread a").first
    expect(note).to_be_visible()
    note.click()
    expect(page).to_have_url(f"{site.url}/#/game/{game['id']}")
    expect(page.locator("#unread")).to_have_text(str(unread - 1))
    assert _unread(site, ana) == unread - 1
