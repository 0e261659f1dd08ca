"""A challenge in the browser (issue 26, item 2): from another player's profile, `Challenge`
with a clock; the other finds it in the inbox (and is told by a toast), accepts, and both are
at the started table."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Challenge
from tests.web.conftest import OpenPage
from tests.web.pages import button, register, table
from tests.web.site import Site
from tests.web.test_layout import shoot


def test_a_player_challenges_another_who_accepts_from_the_inbox(
    site: Site, open_page: OpenPage
) -> None:
    ana, bea = open_page(site), open_page(site)
    register(ana, "ana")
    register(bea, "bea")
    bea_id = site.api("GET", "/api/v1/players/me/", site.token("bea"))["id"]

    ana.goto(f"/#/players/{bea_id}")
    ana.get_by_label("Clock").select_option("30")
    button(ana, "Challenge").click()
    expect(ana.get_by_role("status").filter(has_text="Challenge sent to bea")).to_be_visible()

    expect(bea.locator("#toasts")).to_contain_text("You were challenged")
    bea.goto("/#/inbox")
    offer = bea.locator("[data-challenge-id]")
    expect(offer).to_contain_text("ana challenges you")
    offer.get_by_role("button", name="Accept", exact=True).click()
    expect(bea).to_have_url(re.compile(r"#/game/[^/]+$"))
    expect(table(bea)).to_have_attribute("data-game-status", "active")
    game = bea.url.rsplit("/", 1)[1]
    view = site.view(game, site.token("ana"))
    assert [s["player"]["username"] for s in view["seats"]] == ["ana", "bea"]
    assert view["settings"]["turn_timeout"] == 30

    # The challenger's inbox shows nothing open any more.
    ana.goto("/#/inbox")
    expect(ana.get_by_text("No open challenge.")).to_be_visible()


def test_a_second_click_sends_no_second_challenge(site: Site, open_page: OpenPage) -> None:
    """Two clicks made two challenges: one was left open after the other was accepted."""
    ana = open_page(site)
    register(ana, "ana")
    bea = site.register("bea")
    bea_id = site.api("GET", "/api/v1/players/me/", bea)["id"]

    ana.goto(f"/#/players/{bea_id}")
    challenge = button(ana, "Challenge")
    challenge.click()
    challenge.click(force=True)  # as a quick second click would, on the button as it is drawn
    expect(ana.get_by_role("status").filter(has_text="Challenge sent to bea")).to_be_visible()
    expect(challenge).to_be_disabled()

    sent = site.api("GET", "/api/v1/challenges/", bea)["challenges"]
    assert [c["status"] for c in sent] == ["open"]


def test_a_challenge_that_runs_out_leaves_the_inbox(site: Site, open_page: OpenPage) -> None:
    """Its countdown was written once: an expired challenge stayed, 'due in 0:14' for ever, with
    an Accept the server refused as expired."""
    page = open_page(site)
    register(page, "ana")
    bea = User.objects.create_user("bea")
    Challenge.objects.create(
        challenger=bea,
        challenged=User.objects.get(username="ana"),
        settings={},
        expires_at=timezone.now() + timedelta(seconds=4),
    )
    page.goto("/#/inbox")
    offer = page.locator("[data-challenge-id]")
    expect(offer).to_contain_text("bea challenges you")
    shown = offer.locator("[data-ends]").inner_text()
    expect(offer.locator("[data-ends]")).not_to_have_text(shown)  # it ticks
    expect(offer).to_have_count(0, timeout=30_000)  # and goes once it has run out
    expect(page.get_by_text("No open challenge.")).to_be_visible()


def test_declining_or_cancelling_keeps_the_keyboard_in_the_challenges(
    site: Site, open_page: OpenPage
) -> None:
    """Declined or cancelled from the keyboard, a challenge left the list and the focus fell to
    the top of the page: it goes to the next challenge's Decline (or Cancel), and to the
    Challenges heading once none is left."""
    page = open_page(site)
    register(page, "ana")
    body = {"to": "ana", "settings": {"turn_timeout": 86400}}
    for name in ("bea", "cid"):
        site.api("POST", "/api/v1/challenges/", site.register(name), body, status=201)
    site.register("dan")
    mine = {"to": "dan", "settings": {"turn_timeout": 86400}}
    site.api("POST", "/api/v1/challenges/", site.token("ana"), mine, status=201)

    page.goto("/#/inbox")
    offers = page.locator("[data-challenge-id]")
    expect(offers).to_have_count(3)
    answers = re.compile(r"^(Decline|Cancel)$")
    for left in (2, 1):
        offers.first.get_by_role("button", name=answers).focus()
        page.keyboard.press("Enter")
        expect(offers).to_have_count(left)
        expect(offers.first.get_by_role("button", name=answers)).to_be_focused()
        if left == 2:
            shoot(page, "inbox-declined", "en")
    page.keyboard.press("Enter")
    expect(page.get_by_text("No open challenge.")).to_be_visible()
    expect(page.get_by_role("heading", name="Challenges", exact=True)).to_be_focused()
