"""A stream that drops: the server dies under an open table (every connection cut at once, as
in a crash); the other player's move is made while it is down (through the service's write
path, from the test's process: no server is there to take it); the server starts again, the
table reconnects, shows the move it missed, and goes on live."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import expect

from service import play
from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import assert_no_foreign_cards, at_version, open_table, perform, sign_in
from tests.web.site import Site


def test_a_dropped_stream_reconnects_and_the_table_catches_up(
    own_site: Site, open_page: OpenPage
) -> None:
    site = own_site
    game, tokens = scripted.started(site)
    bea = open_page(site)
    sign_in(bea, "bea")
    open_table(bea, game)
    at_version(bea, site.view(game, tokens[1])["version"])

    site.crash()
    seat, wild = scripted.MOVES[0]
    assert seat == 0
    play.game_act(player=User.objects.get(username="ana"), game_id=game, action=wild)
    site.start_again()
    at_version(bea, site.view(game, tokens[1])["version"])
    expect(bea.locator('[data-region="discard"] [data-card="wild"]')).to_be_visible()
    assert_no_foreign_cards(bea, site, game, tokens[1])

    # The table is live again: Bea's own draw, then Ana's next move, arrive as they happen.
    seat, draw = scripted.MOVES[1]
    assert seat == 1
    perform(bea, draw)
    expect(bea.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    for seat, action in scripted.MOVES[2:4]:
        if seat == 1:
            perform(bea, action)
            expect(bea.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
        else:
            at_version(bea, site.act(game, tokens[seat], action)["version"])
    assert_no_foreign_cards(bea, site, game, tokens[1])
