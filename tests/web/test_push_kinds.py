"""`Push notifications` on the profile: the kinds a player's browsers are pushed, the service's
three ticked until the player chooses; a new choice is saved (`PUT /api/v1/push/kinds/`) and shown
again after a reload."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import Site


def test_a_player_chooses_which_notifications_are_pushed(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    register(page, "pia")
    page.get_by_role("link", name="pia").click()
    section = page.locator("section.push-kinds")
    expect(section.get_by_role("heading", name="Push notifications")).to_be_visible()
    expect(section.get_by_label("Your turn")).to_be_checked()
    expect(section.get_by_label("Game finished")).to_be_checked()
    expect(section.get_by_label("You were challenged")).not_to_be_checked()
    expect(section.get_by_role("checkbox", checked=True)).to_have_count(3)

    section.get_by_label("You were challenged").check()
    section.get_by_label("Game finished").uncheck()
    section.get_by_role("button", name="Save").click()

    expect(section.get_by_role("status")).to_have_text("Saved.")
    chosen = site.api("GET", "/api/v1/push/kinds/", site.token("pia"))
    assert chosen == {"kinds": ["your_turn", "deadline_soon", "challenge"], "default": False}
    page.reload()
    expect(section.get_by_label("You were challenged")).to_be_checked()
    expect(section.get_by_label("Game finished")).not_to_be_checked()
    page.get_by_role("button", name="Português").click()
    expect(section.get_by_role("heading", name="Notificações push")).to_be_visible()
    expect(section.get_by_label("Recebeu um desafio")).to_be_checked()
