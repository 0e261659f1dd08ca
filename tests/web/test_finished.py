"""A game that ends while its table is open: the table follows the last moves live, then shows
the end (the winner, the last round's hands), checks the fair deck in the browser once the
finished view reveals the seed and salt, and takes the person to the rematch's table."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import at_version, button, open_table, sign_in, table
from tests.web.site import Site


def test_the_finished_table_shows_the_end_checks_the_deck_and_offers_a_rematch(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens = scripted.started(site)
    bea = open_page(site)
    sign_in(bea, "bea")
    open_table(bea, game)
    at_version(bea, site.view(game, tokens[1])["version"])

    final = scripted.play_through(site, game, tokens)
    at_version(bea, final)
    expect(table(bea)).to_have_attribute("data-game-status", "finished")
    expect(bea.locator("[data-region=end]")).to_contain_text("ana")
    last = bea.locator("[data-region=last-round] li[data-seat='1'] [data-card]")
    expect(last).to_have_count(len(site.view(game, tokens[1])["last_round"]["hands"]["1"]))
    expect(bea.locator('[data-verified="true"]')).to_be_attached()

    button(bea, "Rematch").click()
    expect(bea).not_to_have_url(re.compile(rf"#/game/{game}$"))
    expect(bea).to_have_url(re.compile(r"#/game/[0-9a-f-]+$"))
    expect(table(bea)).to_have_attribute("data-game-status", "waiting")
