"""A player who resigns a game where a bot takes over their seat (``bot_takeover``), in
Chromium: the table says a bot plays their seat and that they watch, shows no hand and no Resign
(the server refuses a second one), and keeps the table chat for them, as the server does."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Locator, Page, expect

from games.engine.bots import choose
from tests.web.conftest import OpenPage
from tests.web.pages import button, hand, open_table, register
from tests.web.site import GAMES, Site

# A feed line that calls the reader "you" ("You played …", "You drew …").
SAYS_YOU = re.compile(r"^\s*You\b")


def lines_saying_you(page: Page) -> Locator:
    return page.locator("[data-region=feed] li").filter(has_text=SAYS_YOU)


def move_once(site: Site, game: str, tokens: list[str]) -> None:
    """The others move (over the API) until it is seat 0's turn; then seat 0 moves once."""
    rng = random.Random(7)
    for _ in range(40):
        view = site.view(game, tokens[0])
        pending = view["round"]["pending"]
        actor = pending["seat"] if pending else view["round"]["current_seat"]
        legal = site.view(game, tokens[actor])["you"]["legal_actions"]
        site.act(game, tokens[actor], choose(rng, legal))
        if actor == 0:
            return
    raise AssertionError("seat 0 had no turn")


def ana_bea_and_cy(site: Site, page: Page) -> tuple[str, list[str]]:
    """A started game of three with ``bot_takeover``: Ana registered in ``page`` (seat 0), Bea
    and Cy over the API; the game's id and Bea's and Cy's tokens."""
    register(page, "ana")
    others = [site.register(name) for name in ("bea", "cy")]
    body = {"max_players": 3, "bot_takeover": True, "target_score": 100_000}
    game = str(site.api("POST", GAMES, site.token("ana"), body, 201)["id"])
    for token in others:
        site.api("POST", f"{GAMES}{game}/join/", token)
    return game, others


def test_a_player_who_left_their_seat_to_a_bot_watches_and_still_chats(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    game, others = ana_bea_and_cy(site, page)
    open_table(page, game)
    expect(hand(page).locator("[data-card]")).not_to_have_count(0)
    move_once(site, game, [site.token("ana"), *others])
    expect(lines_saying_you(page)).not_to_have_count(0)
    button(page, "Resign").click()
    page.locator("[data-key=resign-yes]").click()

    watching = "You left this game: a bot plays your seat. You are watching."
    expect(page.get_by_text(watching)).to_be_visible()
    expect(hand(page)).to_have_count(0)
    # The feed reads as a spectator's, as a fresh page writes it: the bot's moves on the seat
    # (its first one came with the resign, its frame maybe before the answer) and Ana's own
    # earlier move are Ana's, not "you".
    expect(lines_saying_you(page)).to_have_count(0)
    expect(page.locator("[data-region=feed] li").filter(has_text="ana")).not_to_have_count(0)
    expect(button(page, "Resign")).to_have_count(0)
    seat = page.locator("[data-seat='0']").first
    expect(seat).to_contain_text("basic")
    expect(page.get_by_label("Message", exact=True)).to_be_visible()
    page.get_by_role("button", name="Português").click()
    em_portugues = "Saiu deste jogo: um bot joga no seu lugar. Está a ver."
    expect(page.get_by_text(em_portugues)).to_be_visible()


def test_the_table_tells_at_once_when_a_bot_takes_over_another_seat(
    site: Site, open_page: OpenPage
) -> None:
    """A resignation off its turn under ``bot_takeover`` appended no event: the others' tables
    went on showing the seat as its player's, and their feeds said nothing."""
    page = open_page(site)
    game, others = ana_bea_and_cy(site, page)
    open_table(page, game)
    expect(hand(page).locator("[data-card]")).not_to_have_count(0)

    current = site.view(game, site.token("ana"))["round"]["current_seat"]
    leaving = 2 if current == 1 else 1
    name = ("bea", "cy")[leaving - 1]
    site.api("POST", f"{GAMES}{game}/resign/", others[leaving - 1])

    feed = page.locator("[data-region=feed] li")
    expect(feed.filter(has_text=f"{name} left: a bot plays on")).to_have_count(1)
    expect(page.locator(f"[data-seat='{leaving}']").first).to_contain_text("basic")
