"""A player who resigns a game where a bot takes over their seat (``bot_takeover``), in
Chromium: the table says a bot plays their seat and that they watch, shows no hand and no Resign
(the server refuses a second one), and keeps the table chat for them, as the server does."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import button, hand, open_table, register
from tests.web.site import GAMES, Site


def test_a_player_who_left_their_seat_to_a_bot_watches_and_still_chats(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "ana")
    others = [site.register(name) for name in ("bea", "cy")]
    body = {"max_players": 3, "bot_takeover": True, "target_score": 100_000}
    game = str(site.api("POST", GAMES, site.token("ana"), body, 201)["id"])
    for token in others:
        site.api("POST", f"{GAMES}{game}/join/", token)

    open_table(page, game)
    expect(hand(page).locator("[data-card]")).not_to_have_count(0)
    button(page, "Resign").click()
    page.locator("[data-key=resign-yes]").click()

    watching = "You left this game: a bot plays your seat. You are watching."
    expect(page.get_by_text(watching)).to_be_visible()
    expect(hand(page)).to_have_count(0)
    expect(button(page, "Resign")).to_have_count(0)
    seat = page.locator("[data-seat='0']").first
    expect(seat).to_contain_text("basic")
    expect(page.get_by_label("Message", exact=True)).to_be_visible()
    page.get_by_role("button", name="Português").click()
    em_portugues = "Saiu deste jogo: um bot joga no seu lugar. Está a ver."
    expect(page.get_by_text(em_portugues)).to_be_visible()
