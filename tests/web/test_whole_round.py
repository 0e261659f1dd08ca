"""A newcomer's first round, as issue 25 has it: `Play as guest` on the sign-in page, `Play
against bots` in the lobby, then a whole round by clicking whatever the page offers first. After
every move the feed has a line for each event of the seat's own log (its seat named, exactly
the cards that event shows the seat), the page holds no card of another seat, and the seat that
moved last is marked on the table; the round's end is announced in the feed."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.conftest import OpenPage
from tests.web.pages import (
    assert_feed_matches_log,
    assert_no_foreign_cards,
    button,
    feed_lines,
    next_decision,
    perform,
    table,
)
from tests.web.site import Site

MOST_MOVES = 300  # a bound on the person's moves in one round, far above any real round's
NOT_A_MOVE = {"turn_changed", "bank_changed", "pile_reshuffled", "round_started", "game_started"}


def last_mover(site: Site, game: str, token: str) -> int | None:
    """The seat of the last move in the seat's log (a play, a draw, a call...)."""
    for event in reversed(site.events(game, token)):
        if event["type"] not in NOT_A_MOVE and event["seat"] is not None:
            return int(event["seat"])
    return None


def guest_plays_against_bots(page: Page) -> str:
    page.goto("/#/login")
    button(page, "Play as guest").click()
    expect(button(page, "Sign out")).to_be_visible()
    button(page, "Play against bots").click()
    expect(page).to_have_url(re.compile(r"#/game/[^/]+$"))
    expect(table(page)).to_have_attribute("data-game-status", "active")
    return page.url.rsplit("/", 1)[1]


def test_a_guest_plays_a_whole_round_against_bots_and_the_feed_tells_every_move(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    game = guest_plays_against_bots(page)
    token = str(page.evaluate("() => localStorage.getItem('uno.token')"))
    assert site.api("GET", "/api/v1/players/me/", token)["guest"] is True
    feed = page.locator("[data-region=feed]")
    expect(feed).to_have_attribute("aria-live", "polite")

    for _ in range(MOST_MOVES):
        view = next_decision(page, site, game, token)
        assert_no_foreign_cards(page, site, game, token)
        assert_feed_matches_log(page, site, game, token)
        mover = last_mover(site, game, token)
        if mover is not None:
            expect(page.locator(f"[data-region=seats] li[data-seat='{mover}']")).to_have_class(
                re.compile(r"\bmoved\b")
            )
        if view["status"] != "active" or view.get("last_round"):
            break
        perform(page, view["you"]["legal_actions"][0])
        expect(table(page)).not_to_have_attribute("data-version", str(view["version"]))
    else:
        raise AssertionError(f"the round did not end within {MOST_MOVES} moves")

    ended = [line for line in feed_lines(page) if line["type"] == "round_ended"]
    assert ended and ended[0]["text"].startswith("Round 1 over"), ended
