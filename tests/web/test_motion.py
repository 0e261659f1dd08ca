"""The last move on the table honours `prefers-reduced-motion`: with motion, the seat that moved
flashes and a card played slides onto the pile; asked for less motion, the seat is outlined
and nothing moves (the card is marked as arrived, without an animation)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

from playwright.sync_api import Browser, Page, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import open_table, register, sign_in
from tests.web.site import GAMES, WAIT, Site

SEED = 20261203  # a deal where the person plays first
Motion = Literal["no-preference", "reduce"]
MOTIONS: tuple[Motion, ...] = ("no-preference", "reduce")


@contextmanager
def table_with(
    browser: Browser, site: Site, signed_in: Page, game: str, motion: Motion
) -> Iterator[Page]:
    """The game's table, opened by the person ``signed_in`` in a browser that asks for
    ``motion`` (``prefers-reduced-motion``)."""
    context = browser.new_context(
        base_url=site.url, storage_state=signed_in.context.storage_state(), reduced_motion=motion
    )
    context.set_default_timeout(WAIT * 1000)
    try:
        shown = context.new_page()
        open_table(shown, game)
        yield shown
    finally:
        context.close()


def test_the_last_move_is_shown_with_motion_or_without_it(
    site: Site, open_page: OpenPage, browser: Browser
) -> None:
    page = open_page(site)
    register(page, "moe")
    token = site.make_staff("moe")
    game = site.api(
        "POST", GAMES, token, {"max_players": 2, "bots": ["basic"], "seed": SEED}, status=201
    )
    site.act(str(game["id"]), token, {"action": "draw"})  # a move for the table to show
    animations = {}
    for motion in MOTIONS:
        with table_with(browser, site, page, str(game["id"]), motion) as shown:
            moved = shown.locator("[data-region=seats] li.moved")
            expect(moved).to_have_count(1)
            animations[motion] = moved.evaluate("(el) => getComputedStyle(el).animationName")
            outline = moved.evaluate("(el) => getComputedStyle(el).boxShadow")
            assert motion == "no-preference" or outline != "none", outline
    assert animations == {"no-preference": "moved", "reduce": "none"}, animations


def test_a_card_played_slides_onto_the_pile_unless_motion_is_reduced(
    site: Site, open_page: OpenPage, browser: Browser
) -> None:
    game, _ = scripted.started(site)
    seat, played = scripted.MOVES[0]  # Ana plays her wild: the last move is a card played
    assert (seat, played["action"]) == (0, "play")
    site.act(game, site.token("ana"), played)
    page = open_page(site)
    sign_in(page, "ana")
    animations = {}
    for motion in MOTIONS:
        with table_with(browser, site, page, game, motion) as shown:
            arrived = shown.locator("[data-region=discard] .card.arrived")
            expect(arrived).to_have_count(1)
            expect(arrived).to_have_attribute("data-card", played["card"])
            animations[motion] = arrived.evaluate("(el) => getComputedStyle(el).animationName")
    assert animations == {"no-preference": "arrive", "reduce": "none"}, animations
