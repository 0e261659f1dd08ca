"""The lobby: a person signs in, creates a game with the form, seats a bot and starts; another
sees the waiting game in their lobby. Screenshots of the lobby at both widths."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import assert_no_foreign_cards, open_lobby, open_table, register, table
from tests.web.screens import take
from tests.web.site import GAMES, Site


def test_a_person_creates_a_game_in_the_lobby_adds_a_bot_and_starts_it(
    site: Site, open_page: OpenPage
) -> None:
    host, guest = open_page(site), open_page(site)
    register(host, "hal")
    register(guest, "gus")
    host.goto("/#/")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"#/game/[^/]+$"))
    game = host.url.rsplit("/", 1)[1]
    expect(table(host)).to_have_attribute("data-game-status", "waiting")

    # The waiting game is in the other person's lobby, with a Join button.
    open_lobby(guest)
    expect(guest.get_by_role("button", name="Join", exact=True)).to_be_visible()
    take(guest, "lobby")

    host.get_by_role("button", name="Add bot").click()
    token = site.token("hal")
    view = site.view(game, token)
    assert any(seat.get("bot") for seat in view["seats"]), view["seats"]
    host.get_by_role("button", name="Start").click()
    expect(table(host)).to_have_attribute("data-game-status", "active")
    view = site.view(game, token)
    open_table(host, game)
    expect(table(host)).to_have_attribute("data-version", str(view["version"]))
    assert_no_foreign_cards(host, site, game, token)
    assert site.api("GET", f"{GAMES}{game}/", token)["status"] == "active"
