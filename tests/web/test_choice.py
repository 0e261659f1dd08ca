"""A card's choice in progress (a wild's colour) holds the other moves back, in Chromium: Draw was
clickable while the colour picker was open, and a draw sent then left the picker on screen for a
wild the turn had passed by. Cancel gives Draw back; a colour sends the play."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import COLOURS, button, hand, open_table, sign_in, table
from tests.web.site import Site


def test_while_a_wilds_colour_is_chosen_draw_waits(site: Site, open_page: OpenPage) -> None:
    game, tokens = scripted.started(site)  # Ana (seat 0) moves first and holds a wild
    page = open_page(site)
    sign_in(page, "ana")
    open_table(page, game)
    draw = button(page, "Draw")
    expect(draw).to_be_enabled()

    hand(page).locator('[data-card="wild"]').click()
    picker = page.get_by_role("group", name="Choose a colour")
    expect(picker).to_be_visible()
    expect(draw).to_be_disabled()
    version = site.view(game, tokens[0])["version"]

    picker.get_by_role("button", name="Cancel").click()
    expect(picker).to_have_count(0)
    expect(draw).to_be_enabled()

    hand(page).locator('[data-card="wild"]').click()
    button(page, COLOURS["blue"]).click()
    expect(table(page)).not_to_have_attribute("data-version", str(version))
    view = site.view(game, tokens[0])
    assert view["round"]["top_card"] == "wild" and view["round"]["color"] == "blue", view["round"]
