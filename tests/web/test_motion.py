"""The last move on the table honours `prefers-reduced-motion`: with motion, the seat that moved
flashes and a card played slides onto the pile; asked for less motion, the seat is outlined
and nothing moves (the card is marked as arrived, without an animation)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import open_table, register, sign_in
from tests.web.site import GAMES, WAIT, Site

SEED = 20261203  # a deal where the person plays first


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
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(
            base_url=site.url, storage_state=page.context.storage_state(), reduced_motion=motion
        )
        context.set_default_timeout(WAIT * 1000)
        try:
            shown = context.new_page()
            open_table(shown, str(game["id"]))
            moved = shown.locator("[data-region=seats] li.moved")
            expect(moved).to_have_count(1)
            animations[motion] = moved.evaluate("(el) => getComputedStyle(el).animationName")
            outline = moved.evaluate("(el) => getComputedStyle(el).boxShadow")
            assert motion == "no-preference" or outline != "none", outline
        finally:
            context.close()
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
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(
            base_url=site.url, storage_state=page.context.storage_state(), reduced_motion=motion
        )
        context.set_default_timeout(WAIT * 1000)
        try:
            shown = context.new_page()
            open_table(shown, game)
            arrived = shown.locator("[data-region=discard] .card.arrived")
            expect(arrived).to_have_count(1)
            expect(arrived).to_have_attribute("data-card", played["card"])
            animations[motion] = arrived.evaluate("(el) => getComputedStyle(el).animationName")
        finally:
            context.close()
    assert animations == {"no-preference": "arrive", "reduce": "none"}, animations
