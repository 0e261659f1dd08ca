"""The lobby: a person creates a game with the form; another finds it among the open games and
joins it; the host seats a bot and starts. Screenshots of the lobby at both widths."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import assert_no_foreign_cards, at_version, open_lobby, register, table
from tests.web.screens import take
from tests.web.site import Site
from tests.web.test_layout import shoot


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


def test_the_create_form_says_beside_the_setting_why_the_server_refused_it(
    site: Site, open_page: OpenPage
) -> None:
    """Teams that do not fit the players, bots that do not fit the seats, house rules that do not
    combine: each said beside the setting the refusal names (its body's ``fields``), in the
    reader's words, the setting marked invalid and focused. The form said a sentence about every
    house rule for the first and the third, and "reload the page" for the bots."""
    page = open_page(site)
    register(page, "ana")
    open_lobby(page)
    form = page.locator("form.create")
    alert = form.locator("> [role=alert]")
    create = page.get_by_role("button", name="Create game")
    players = form.get_by_label("Players", exact=True)
    teams = form.get_by_label("Teams", exact=True)
    bots = form.get_by_label("Bots", exact=True)

    players.fill("5")
    teams.select_option("2")
    create.click()
    said = "2 teams need a multiple of 2 players, 2 or more a team (not 5)."
    expect(alert).to_have_text(f"Teams: {said}")
    expect(teams).to_have_attribute("aria-invalid", "true")
    expect(teams).to_have_accessible_description(said[0].upper() + said[1:])
    expect(teams).to_be_focused()
    shoot(page, "lobby-refused-teams", "en")

    # Mended, the mark goes; too many bots are said beside the bots.
    teams.select_option("0")
    players.fill("3")
    bots.fill("3")
    create.click()
    expect(alert).to_have_text("Bots: at most 2: you take a seat too.")
    expect(bots).to_have_accessible_description("At most 2: you take a seat too.")
    expect(bots).to_be_focused()
    expect(teams).not_to_have_attribute("aria-invalid", "true")
    expect(form.locator(".field .error, .check .error")).to_have_count(1)

    # Two house rules that do not combine: both marked, the folded house rules opened.
    bots.fill("0")
    zero = form.get_by_label("Zero swaps", exact=True)
    seven = form.get_by_label("Seven-zero", exact=True)
    form.get_by_text("House rules", exact=True).click()
    zero.check()
    seven.check()
    form.get_by_text("House rules", exact=True).click()  # folded again
    create.click()
    expect(seven).to_have_accessible_description(re.compile(r"Does not go with Zero swaps\.$"))
    expect(zero).to_have_accessible_description(re.compile(r"Does not go with Seven-zero\.$"))
    expect(zero).to_have_attribute("aria-invalid", "true")
    expect(seven).to_be_focused()  # the first of the two on the page
    expect(alert).to_contain_text("Seven-zero: does not go with Zero swaps.")
    shoot(page, "lobby-refused-rules", "en")

    # In Portuguese, in Portuguese.
    page.get_by_role("button", name="Português").click()
    form.get_by_label("Jogadores", exact=True).fill("4")
    form.get_by_label("Equipas", exact=True).select_option("3")
    page.get_by_role("button", name="Criar jogo").click()
    pt = "3 equipas precisam de um múltiplo de 3 jogadores, 2 ou mais por equipa (não 4)."
    expect(alert).to_have_text(f"Equipas: {pt}")
    expect(form.get_by_label("Equipas", exact=True)).to_have_accessible_description(
        pt[0].upper() + pt[1:]
    )
    shoot(page, "lobby-refused-teams", "pt")
