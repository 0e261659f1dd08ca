"""The table as a player meets it on a phone (375 px, touch) and in Portuguese: the group of the
turn's actions was named `Actions` in English on a Portuguese page (what a screen reader says on
reaching `Comprar`)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import open_table, sign_in
from tests.web.site import Site

FINGER = 44  # px: the least a tap target's height and width


def assert_tappable(target: Locator, what: str) -> None:
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None, what
    assert box["height"] >= FINGER and box["width"] >= FINGER, (what, box)


def phone(open_page: OpenPage, site: Site) -> Page:
    return open_page(site, width=375, height=667)


def test_the_actions_group_is_named_in_portuguese(site: Site, open_page: OpenPage) -> None:
    game, _ = scripted.started(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.get_by_role("button", name="Português", exact=True).click()
    open_table(page, game)
    actions = page.get_by_role("group", name="Ações", exact=True)
    expect(actions.get_by_role("button", name="Comprar", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Actions", exact=True)).to_have_count(0)
