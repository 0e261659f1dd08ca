"""A refused move shows why in the page's alert (the client's words for its code), and changes
nothing.

Ana has the table open in two tabs; the second one hears nothing after it opened (its stream and
long poll are cut off by the browser), so it still offers her the move she has already made in
the first tab: the server refuses the second one."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import at_version, button, open_table, play_card, sign_in, table
from tests.web.site import GAMES, Site


def test_a_refused_move_says_why_and_changes_nothing(site: Site, open_page: OpenPage) -> None:
    game, tokens = scripted.started(site)
    first = open_page(site)
    sign_in(first, "ana")
    second = first.context.new_page()

    def deaf(route: Route) -> None:
        route.abort()

    second.route("**/stream/**", deaf)
    second.route("**/events/**", deaf)
    started = site.view(game, tokens[0])["version"]
    for page in (first, second):
        open_table(page, game)
        at_version(page, started)

    seat, wild = scripted.MOVES[0]
    assert seat == 0
    play_card(first, wild["card"], wild["color"])
    expect(table(first)).not_to_have_attribute("data-version", str(started))
    played = site.view(game, tokens[0])["version"]
    at_version(first, played)

    # The second tab still shows Ana's turn: her Draw there is refused.
    at_version(second, started)
    button(second, "Draw").click()
    # The page sends the version it shows (expected_version): the answer it got was this one.
    stale = {"action": "draw", "expected_version": started}
    refused = site.api("POST", f"{GAMES}{game}/actions/", tokens[0], stale, 409)
    assert refused["code"] == "version_conflict", refused
    expect(second.get_by_role("alert")).to_contain_text("The game moved on meanwhile")
    assert site.view(game, tokens[0])["version"] == played
