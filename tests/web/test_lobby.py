"""The lobby: a person creates a game with the form; another finds it among the open games and
joins it; the host seats a bot and starts. Screenshots of the lobby at both widths."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import assert_no_foreign_cards, at_version, open_lobby, register, table
from tests.web.screens import take
from tests.web.site import Site


def test_a_game_made_in_the_lobby_is_joined_from_the_lobby_gets_a_bot_and_starts(
    site: Site, open_page: OpenPage
) -> None:
    host, guest = open_page(site), open_page(site)
    register(host, "hal")
    register(guest, "gus")
    open_lobby(host)
    host.get_by_label("Players", exact=True).fill("3")
    host.get_by_role("button", name="Create game").click()
    expect(host).to_have_url(re.compile(r"#/game/[^/]+$"))
    game = host.url.rsplit("/", 1)[1]
    expect(table(host)).to_have_attribute("data-game-status", "waiting")

    # The waiting game is in the other person's lobby, with a Join button.
    open_lobby(guest)
    open_game = guest.locator(f'[data-game-id="{game}"]')
    expect(open_game).to_contain_text("hal")
    take(guest, "lobby")
    open_game.get_by_role("button", name="Join", exact=True).click()
    expect(guest).to_have_url(re.compile(rf"#/game/{game}$"))
    expect(table(guest)).to_have_attribute("data-game-status", "waiting")

    # The third seat goes to a bot, which fills the table: the game starts by itself.
    host.get_by_role("button", name="Add bot").click()
    tokens = [site.token("hal"), site.token("gus")]
    for page, token in zip((host, guest), tokens, strict=True):
        expect(table(page)).to_have_attribute("data-game-status", "active")
        view = site.view(game, token)
        assert [bool(seat.get("bot")) for seat in view["seats"]] == [False, False, True]
        at_version(page, view["version"])
        assert_no_foreign_cards(page, site, game, token)


def test_a_mistyped_invite_code_is_refused_in_the_lobby_and_kept(
    site: Site, open_page: OpenPage
) -> None:
    """It led to a page of its own, saying only the refusal: the code typed was lost."""
    page = open_page(site)
    register(page, "gus")
    host = site.register("hal")
    game = site.api("POST", "/api/v1/games/", host, {"max_players": 2, "private": True}, 201)
    open_lobby(page)
    code = page.get_by_label("Invite code", exact=True)

    code.fill(game["invite_code"] + "X")
    page.get_by_role("button", name="Join by code").click()

    expect(page.locator("#join-code-alert")).to_have_text("No game has this invite code.")
    expect(code).to_have_value(game["invite_code"] + "X")
    assert not re.search(r"#/(join|game)/", page.url), page.url

    code.fill(game["invite_code"])
    page.get_by_role("button", name="Join by code").click()
    expect(page).to_have_url(re.compile(rf"#/game/{game['id']}$"))
    expect(table(page)).to_have_attribute("data-game-status", "active")


def test_a_quick_match_waiting_for_players_counts_down_to_its_bots(
    site: Site, open_page: OpenPage
) -> None:
    """The waiting table said nothing of the bots asked for: it seemed to wait for people only."""
    page = open_page(site)
    register(page, "gus")
    open_lobby(page)
    page.get_by_label("Players wanted", exact=True).fill("3")
    page.get_by_label("Bots after (seconds)", exact=True).fill("600")
    page.get_by_role("button", name="Quick match", exact=True).click()
    expect(page).to_have_url(re.compile(r"#/game/[^/]+$"))
    expect(table(page)).to_have_attribute("data-game-status", "waiting")

    said = page.locator(".bots-fill")
    expect(said).to_have_text(re.compile(r"^Bots take the free seats in (10:00|9:[0-5]\d)$"))
    first = said.inner_text()
    expect(said).not_to_have_text(first)  # counted down, once a second
    page.get_by_role("button", name="Português").click()
    expect(said).to_have_text(re.compile(r"^Os bots ocupam os lugares livres dentro de 9:[0-5]\d$"))
