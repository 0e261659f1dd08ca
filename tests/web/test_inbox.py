"""The inbox in Chromium: the header's unread badge keeps its count on every page and through a
language or colour-blind switch (it was emptied by each, until the next notification or a
reload); a notification opened from the inbox is read; a toast on screen through a language
switch says its words in the new language, and covers neither a table's heading nor its hand."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, Route, expect

from notifications.models import Notification
from tests.support.tournaments import wait_for
from tests.web.conftest import OpenPage
from tests.web.pages import register, sign_in, table
from tests.web.site import GAMES, Site


def badge(page: Page) -> str:
    expect(page.locator("#unread")).to_be_visible()
    return page.locator("#unread").inner_text()


def nav(page: Page, name: str) -> Locator:
    # The header's navigation: named "Main", or "Principal" in Portuguese.
    return page.locator("#header nav").get_by_role("link", name=name, exact=True)


def _unread(site: Site, token: str) -> int:
    return int(site.api("GET", "/api/v1/notifications/?unread=true&page_size=1", token)["count"])


def test_the_unread_badge_stays_and_an_opened_notification_is_read(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "ana")
    ana, bea = site.token("ana"), site.register("bea")
    game = site.api("POST", GAMES, bea, {"max_players": 2}, 201)
    site.api("POST", f"{GAMES}{game['id']}/join/", ana)  # ana hears of the start (and a turn)
    unread = _unread(site, ana)
    assert unread >= 1
    page.reload()
    expect(page.locator("#unread")).to_have_text(str(unread))

    for step in (
        lambda: nav(page, "Leaderboard").click(),
        lambda: nav(page, "Tournaments").click(),
        lambda: page.get_by_role("button", name="Português").click(),
        lambda: page.get_by_role("button", name="Modo daltónico").click(),
        lambda: nav(page, "Salão").click(),
    ):
        step()
        expect(page.locator("#unread")).to_have_text(str(unread))
        expect(page.locator("#unread")).to_be_visible()

    page.goto("/#/inbox")
    note = page.locator("ul.notes li.unread a").first
    expect(note).to_be_visible()
    note.click()
    expect(page).to_have_url(f"{site.url}/#/game/{game['id']}")
    expect(page.locator("#unread")).to_have_text(str(unread - 1))
    assert _unread(site, ana) == unread - 1


def test_a_notification_of_the_game_on_screen_is_read_as_it_comes(
    site: Site, open_page: OpenPage
) -> None:
    """At her table, Ana's badge counted the notices of the very game she watched (its turns,
    its end) as unread, for her to find again in the inbox."""
    page = open_page(site)
    register(page, "ana")
    ana, bea = site.token("ana"), site.register("bea")
    game = str(site.api("POST", GAMES, bea, {"max_players": 2}, 201)["id"])
    site.api("POST", f"{GAMES}{game}/join/", ana)
    page.goto(f"/#/game/{game}")
    expect(table(page)).to_have_attribute("data-game-status", "active")

    site.api("POST", f"{GAMES}{game}/resign/", bea)  # Ana is told the game is over
    ended = Notification.objects.filter(player__username="ana", game_id=game, kind="game_finished")
    wait_for(lambda: ended.filter(read=True).exists(), "the notice of the end read")
    expect(table(page)).to_have_attribute("data-game-status", "finished")
    # The badge counts what is unread (the notices of the game that came before the page
    # opened, if any are left), the end not among it.
    unread = _unread(site, ana)
    if unread:
        expect(page.locator("#unread")).to_have_text(str(unread))
    else:
        expect(page.locator("#unread")).to_be_hidden()


def test_older_notifications_are_shown_on_asking(site: Site, open_page: OpenPage) -> None:
    """Only the newest 20 were ever shown: a challenge went out of sight behind a game's turns."""
    page = open_page(site)
    # No player stream: a notification heard would make the inbox read its pages again, and
    # the test reads them once (the connection's loss is the browser's).
    page.route(re.compile(r"/api/v1/players/me/stream/"), lambda route: route.abort())
    register(page, "ana")
    ana = User.objects.get(username="ana")
    Notification.objects.bulk_create(
        Notification(
            player=ana,
            kind="tournament_finished",
            at=timezone.now() - timedelta(minutes=25 - n),
            data={"tournament": str(uuid.uuid4()), "name": f"Cup {n}", "place": 1, "points": 1},
        )
        for n in range(25)
    )
    page.goto("/#/inbox")
    shown = page.locator("ul.notes li")
    expect(shown).to_have_count(20)
    expect(page.get_by_text("Cup 0: place 1")).to_have_count(0)

    # One more comes while the pages are read again, just before the second: it starts a place
    # later, with the one already read last on the first (which was listed twice). It is not
    # on the first page, read before it came: the next read shows it.
    def one_more_first(route: Route) -> None:
        Notification.objects.create(
            player=ana,
            kind="tournament_finished",
            at=timezone.now(),
            data={"tournament": str(uuid.uuid4()), "name": "Cup 25", "place": 1, "points": 1},
        )
        route.continue_()

    page.route(re.compile(r"/api/v1/notifications/\?.*page=2"), one_more_first, times=1)
    page.get_by_role("button", name="Show older", exact=True).click()

    expect(page.get_by_text("Cup 0: place 1")).to_be_visible()
    expect(shown).to_have_count(25)
    texts = shown.all_inner_texts()
    assert len(set(texts)) == 25, texts
    expect(page.get_by_role("button", name="Show older", exact=True)).to_be_hidden()


def test_a_toast_on_screen_speaks_the_language_switched_to(site: Site, open_page: OpenPage) -> None:
    """A toast shown before the switch kept its English words (and its button's name) for its
    8 s under a page all in Portuguese. A desktop's: a phone's toasts lie over its header, switch
    included, and a tap reaches the switch once they are dismissed (a keyboard's at once)."""
    page = open_page(site)
    register(page, "ana")
    ana, bea = site.token("ana"), site.register("bea")
    game = site.api("POST", GAMES, ana, {"max_players": 3}, 201)
    site.api("POST", f"{GAMES}{game['id']}/join/", bea)  # ana hears that bea joined
    toast = page.locator("#toasts .toast")
    expect(toast).to_contain_text("A player joined · bea (2/3)")

    page.get_by_role("button", name="Português").click()

    expect(nav(page, "Salão")).to_be_visible()
    expect(toast).to_contain_text("Entrou um jogador · bea (2/3)")
    expect(toast.get_by_role("button", name="Fechar")).to_be_visible()


def _boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    return page.locator(selector).evaluate_all(
        "(all) => all.map((e) => { const r = e.getBoundingClientRect();"
        " return {what: e.className || e.textContent, top: r.top, bottom: r.bottom,"
        " left: r.left, right: r.right}; })"
    )


def _apart(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return (
        one["bottom"] <= other["top"]
        or other["bottom"] <= one["top"]
        or one["right"] <= other["left"]
        or other["right"] <= one["left"]
    )


@pytest.mark.parametrize(("width", "height"), [(375, 667), (900, 640), (1280, 800)])
def test_toasts_cover_neither_a_tables_heading_nor_its_hand(
    site: Site, open_page: OpenPage, width: int, height: int
) -> None:
    """Just under the header, two toasts hid the table's round and turn (and on a desktop the
    move feed's heading); at the foot of a short phone's screen they would hide its hand."""
    page = open_page(site, width=width, height=height)
    register(page, "ana")
    ana, bea = site.token("ana"), site.register("bea")
    table = site.api("POST", GAMES, ana, {"max_players": 2, "bots": ["basic"]}, 201)
    page.goto(f"/#/game/{table['id']}")
    expect(page.locator(".hand")).to_be_visible()
    for _ in range(2):  # the most shown at once
        game = site.api("POST", GAMES, ana, {"max_players": 3}, 201)
        site.api("POST", f"{GAMES}{game['id']}/join/", bea)  # ana hears of a seat taken
    toasts = page.locator("#toasts .toast")
    expect(toasts).to_have_count(2)

    expect(page.locator("#feed-title")).to_be_visible()
    for toast in _boxes(page, "#toasts .toast"):
        for covered in _boxes(page, ".table-head, .hand, main h1, main h2"):
            assert _apart(toast, covered), (toast, covered)


@pytest.mark.parametrize(("width", "height"), [(375, 667), (768, 1024)])
def test_a_toast_over_the_header_is_dismissed_with_a_finger(
    site: Site, browser: Browser, width: int, height: int
) -> None:
    """On a phone or a tablet a toast lies over the header's tools (`Sign out`, the language,
    colour-blind mode) for 8 s; its `Dismiss`, the way to them before then, was 21 by 30 px. It is a
    44 px square now, within the toast's height, and a tap on it gives the tools back."""
    site.register("ana")
    ana, bea = site.token("ana"), site.register("bea")
    touch = browser.new_context(
        base_url=site.url,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale="en-GB",
    )
    try:
        page = touch.new_page()
        # The page's notifications' stream open first: it toasts what comes after.
        with page.expect_response(lambda answer: "/players/me/stream/" in answer.url):
            sign_in(page, "ana")
        game = site.api("POST", GAMES, ana, {"max_players": 3}, 201)
        site.api("POST", f"{GAMES}{game['id']}/join/", bea)  # ana hears that bea joined
        toast = page.locator("#toasts .toast")
        dismiss = toast.get_by_role("button", name="Dismiss", exact=True)
        expect(dismiss).to_be_visible()
        box, around = dismiss.bounding_box(), toast.bounding_box()
        assert box is not None and around is not None
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert (
            around["y"] <= box["y"] and box["y"] + box["height"] <= around["y"] + around["height"]
        )

        sign_out = page.get_by_role("banner").get_by_role("button", name="Sign out", exact=True)
        dismiss.tap()
        expect(toast).to_have_count(0)
        sign_out.tap()  # reached: nothing lies over it
        expect(page.get_by_role("banner").get_by_role("link", name="Sign in")).to_be_visible()
    finally:
        touch.close()
