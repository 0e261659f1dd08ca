"""The table follows the game stream's frames: each event goes into what it shows as it comes,
and the game view (``GET /api/v1/games/{id}/``) is read again only where a frame cannot carry
what the table needs (web/app/table/state.js says when). A spectator's table, which never has
anything to do, reads the view once while dozens of events go by; a seated person's table reads
it about once per turn of theirs, not once per event. Either way the table ends up showing what
the server's view says. Through the hooks of web/HOOKS.md only (the requests are Playwright's)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.web.conftest import OpenPage
from tests.web.pages import (
    at_version,
    hand_cards,
    next_decision,
    open_table,
    perform,
    register,
    table,
)
from tests.web.site import GAMES, Site

SEED = 20261203
HOST_MOVES = 8  # the host's moves while the spectator watches: each followed by two bots'
DECISIONS = 10  # the seated person's moves


def view_reads(page: Page, game: str) -> list[str]:
    """The page's reads of the game view, from now on (Playwright sees every request)."""
    path = f"{GAMES}{game}/"
    reads: list[str] = []
    page.on(
        "request",
        lambda request: (
            reads.append(request.url)
            if request.method == "GET" and urlsplit(request.url).path == path
            else None
        ),
    )
    return reads


def assert_shows(page: Page, view: dict[str, Any]) -> None:
    """The table shows ``view``: its version, the top card, whose turn, every seat's card count,
    and the person's hand card for card."""
    at_version(page, view["version"])
    expect(table(page)).to_have_attribute("data-game-status", view["status"])
    round_ = view["round"]
    discard = page.locator("[data-region=discard] [data-card]")
    expect(discard).to_have_attribute("data-card", round_["top_card"])
    for seat in view["seats"]:
        entry = page.locator(f"[data-region=seats] li[data-seat='{seat['seat']}']")
        count = entry.locator("[data-hand-count]")
        expect(count).to_have_attribute("data-hand-count", str(seat["hand_count"]))
        if view["status"] == "active" and seat["seat"] == round_["current_seat"]:
            expect(entry).to_have_attribute("aria-current", "true")
        else:
            expect(entry).not_to_have_attribute("aria-current", "true")
    if view["you"] is not None:
        assert hand_cards(page) == view["you"]["hand"], (hand_cards(page), view["you"]["hand"])


def wait_for_turn(site: Site, game: str, token: str) -> dict[str, Any]:
    """The host's view once the bots (playing in the server after each move) have moved and
    the host has something to do, or the game is over: each wait is the event log's long poll."""
    while True:
        view = site.view(game, token)
        if view["status"] != "active" or view["you"]["legal_actions"]:
            return view
        site.api("GET", f"{GAMES}{game}/events/?after={view['version']}&wait=10", token)


def test_a_spectators_table_follows_the_stream_and_reads_the_view_once(
    site: Site, open_page: OpenPage
) -> None:
    site.register("hal")
    host = site.make_staff("hal")
    created = site.api(
        "POST",
        GAMES,
        host,
        {"max_players": 3, "seed": SEED, "bots": ["basic", "basic"]},
        status=201,
    )
    game = str(created["id"])
    page = open_page(site)
    register(page, "spy")  # not seated: the table of a spectator
    reads = view_reads(page, game)
    open_table(page, game)
    first = site.view(game, host)["version"]
    at_version(page, first)
    expect(page.locator(".link-state")).to_have_text("live")

    for _ in range(HOST_MOVES):
        view = wait_for_turn(site, game, host)
        assert view["status"] == "active"
        site.act(game, host, view["you"]["legal_actions"][0])
    wait_for_turn(site, game, host)

    seen = site.view(game, site.token("spy"))
    assert seen["you"] is None
    assert_shows(page, seen)
    frames = seen["version"] - first
    print(f"spectator: {frames} events followed, {len(reads)} reads of the view")
    assert frames >= 3 * HOST_MOVES, frames
    assert len(reads) == 1, reads  # the first read, then the stream alone


def test_a_seated_persons_table_reads_the_view_only_when_it_is_their_move(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "sam")
    token = site.make_staff("sam")
    created = site.api(
        "POST",
        GAMES,
        token,
        {"max_players": 3, "seed": SEED, "bots": ["basic", "strong"]},
        status=201,
    )
    game = str(created["id"])
    reads = view_reads(page, game)
    open_table(page, game)
    first = site.view(game, token)["version"]

    decisions = 0
    for _ in range(DECISIONS):
        view = next_decision(page, site, game, token)
        if view["status"] != "active":
            break
        assert_shows(page, view)
        perform(page, view["you"]["legal_actions"][0])
        decisions += 1
        expect(table(page)).not_to_have_attribute("data-version", str(view["version"]))
    view = next_decision(page, site, game, token)
    assert_shows(page, view)

    frames = view["version"] - first
    print(f"seated: {frames} events, {decisions} moves, {len(reads)} reads of the view")
    # The first read, then one each time the bots hand the turn back (the person's own moves
    # answer with the view): never one per event.
    assert decisions == DECISIONS
    assert len(reads) <= decisions + 2, (len(reads), decisions, frames)
    assert len(reads) * 2 < frames, (len(reads), frames)
