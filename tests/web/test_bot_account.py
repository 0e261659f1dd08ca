"""A bot account (a player's program, docs/bot-api.md) is tagged as one in the browser: its seat
at the table, its profile, its leaderboard row and a tournament's entrants, in English and in
Portuguese."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.tournaments import body_of
from tests.web.conftest import OpenPage
from tests.web.pages import open_table, register
from tests.web.site import GAMES, Site


def test_a_bot_account_is_tagged_at_the_table_on_its_profile_and_the_leaderboard(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "kim")
    program = site.register("deepuno")
    site.api("POST", "/api/v1/players/me/bot-account/", program)
    game = site.api(
        "POST",
        GAMES,
        site.token("kim"),
        {"max_players": 3, "bot_accounts": ["deepuno"], "bots": ["basic"]},
        status=201,
    )
    assert game["status"] == "active"

    open_table(page, str(game["id"]))
    seats = page.locator('[data-region="seats"]')
    expect(seats.locator('[data-seat="1"]')).to_contain_text("bot account")
    expect(seats.locator('[data-seat="0"]')).not_to_contain_text("bot account")
    expect(seats.locator('[data-seat="2"]')).not_to_contain_text("bot account")  # a built-in bot

    site.api("POST", f"{GAMES}{game['id']}/resign/", program)
    site.api("POST", f"{GAMES}{game['id']}/resign/", site.token("kim"))  # finished: all rated
    page.goto("/#/leaderboard")
    expect(page.locator('tr[data-player="deepuno"]')).to_contain_text("bot account")
    expect(page.locator('tr[data-player="kim"]')).not_to_contain_text("bot account")

    page.goto("/#/players/deepuno")
    expect(page.get_by_role("heading", level=1)).to_contain_text("bot account")
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("conta bot")


def test_a_bot_account_is_tagged_among_a_tournaments_entrants(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "lea")
    program = site.register("unobot")
    site.api("POST", "/api/v1/players/me/bot-account/", program)
    body = body_of(
        name="Bots welcome cup",
        table_size=2,
        rounds=1,
        bots_allowed=True,
        settings={"target_score": 1},
    )
    cup = site.api("POST", "/api/v1/tournaments/", site.token("lea"), body, status=201)
    for token in (site.token("lea"), program):
        site.api("POST", f"/api/v1/tournaments/{cup['id']}/join/", token)

    page.goto(f"/#/tournaments/{cup['id']}")
    entrants = page.locator('[data-region="entrants"]')
    expect(entrants.locator("li").filter(has_text="unobot")).to_contain_text("bot account")
    expect(entrants.locator("li").filter(has_text="lea")).not_to_contain_text("bot account")
    page.get_by_role("button", name="Português").click()
    expect(entrants.locator("li").filter(has_text="unobot")).to_contain_text("conta bot")


def test_a_player_makes_their_account_a_bot_account_from_the_profile(
    site: Site, open_page: OpenPage
) -> None:
    """Refused in the reader's words once the account has played; then, for an account that has
    not, done: the profile is a bot account's (tagged, no push notifications; its password
    change and deletion stay, which its password makes)."""
    page = open_page(site)
    register(page, "ren")
    page.get_by_role("link", name="ren").click()
    section = page.locator("section.bot-account-section")
    expect(section.get_by_role("heading", name="Bot account")).to_be_visible()
    site.api("POST", GAMES, site.token("ren"), {"max_players": 3}, status=201)  # a seat: played

    section.get_by_label("I understand that a program plays this account from now on").check()
    section.get_by_role("button", name="Make this a bot account").click()
    expect(section.get_by_role("alert")).to_have_text(
        "A bot account is made of an account that has not played yet."
    )

    register(page, "zed")
    page.get_by_role("link", name="zed").click()
    section.get_by_label("I understand that a program plays this account from now on").check()
    section.get_by_role("button", name="Make this a bot account").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("bot account")
    expect(page.locator("section.bot-account-section")).to_have_count(0)
    expect(page.locator("section.push-kinds")).to_have_count(0)  # a program has no browser
    expect(page.locator("section.webhooks-section")).to_be_visible()  # but may be told so
    # The password, not the token, makes these: the owner keeps them.
    expect(page.locator("section.password")).to_be_visible()
    expect(page.locator("section.delete-account")).to_be_visible()
    token = site.token("zed")
    assert site.api("GET", "/api/v1/players/me/", token)["bot_account"] is True
