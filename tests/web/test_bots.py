"""One person plays a whole game against bots in the browser, clicking whatever the page offers
for the first of their legal actions each time it is their move, until the game ends. The game
is seeded (staff may give a seed), so the same clicks play the same game on every run; the
bots play at once, in the server, after the move that made them due, and their moves reach
the page live."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import OpenPage
from tests.web.pages import (
    assert_feed_matches_log,
    assert_no_foreign_cards,
    next_decision,
    open_table,
    perform,
    register,
    table,
)
from tests.web.screens import take
from tests.web.site import GAMES, Site

SEED = 20261201
TARGET = 100
MOST_MOVES = 400  # a bound on the person's moves, far above a 100-point game's
SCREENSHOT_AT = 6  # the person's move at which the table and its feed are photographed


def test_one_person_plays_a_whole_game_against_bots_by_clicking(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "kim")
    token = site.make_staff("kim")
    created = site.api(
        "POST",
        GAMES,
        token,
        {"max_players": 3, "target_score": TARGET, "seed": SEED, "bots": ["basic", "strong"]},
        status=201,
    )
    game = str(created["id"])
    assert created["status"] == "active"  # a table full of the creator and bots starts at once
    open_table(page, game)

    rounds = set()
    for moves in range(MOST_MOVES):
        view = next_decision(page, site, game, token)
        if view["status"] != "active":
            break
        rounds.add(view["round"]["number"])
        assert_no_foreign_cards(page, site, game, token)
        assert_feed_matches_log(page, site, game, token)
        if moves == SCREENSHOT_AT:
            take(page, "table-feed")
            colour_blind = page.get_by_role("button", name="Colour-blind mode", exact=True)
            colour_blind.click()
            expect(colour_blind).to_have_attribute("aria-pressed", "true")
            take(page, "table-colorblind")
            colour_blind.click()
            expect(colour_blind).to_have_attribute("aria-pressed", "false")
        perform(page, view["you"]["legal_actions"][0])
        expect(table(page)).not_to_have_attribute("data-version", str(view["version"]))
    else:
        raise AssertionError(f"the game did not end within {MOST_MOVES} moves")

    assert view["status"] == "finished", view["status"]
    assert max(s["score"] for s in view["seats"]) >= TARGET
    expect(table(page)).to_have_attribute("data-game-status", "finished")
    assert_feed_matches_log(page, site, game, token)
    assert rounds, "the person played"


def test_a_spectator_opens_a_bots_profile_from_its_seat(site: Site, open_page: OpenPage) -> None:
    """The seat linked the bot by name, which a spectator's page could not find: "Not found."."""
    page = open_page(site)
    register(page, "eve")
    host = site.register("kim")
    created = site.api("POST", GAMES, host, {"max_players": 2, "bots": ["basic"]}, status=201)
    bot = created["seats"][1]["player"]["username"]

    open_table(page, str(created["id"]))
    page.locator("[data-seat='1'] .seat-name a").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text(bot)
    expect(page.get_by_text("Not found.")).to_have_count(0)
