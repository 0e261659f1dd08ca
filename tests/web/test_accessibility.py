"""axe-core over the pages a person spends their time on, at phone and desktop width: the lobby
with an open game listed, a table mid-round on the person's turn (their hand, the action
buttons), the inbox with notifications, and the replay of a finished game part way through;
the table and the replay also with colour-blind mode on. No critical and no serious violation
(docs/accessibility.md has the figures and what is left)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.support.mail import Mailbox
from tests.support.players import PASSWORD
from tests.web import scripted
from tests.web.axe import Audit, assert_accessible, audit
from tests.web.conftest import OpenPage
from tests.web.pages import button, hand, next_decision, open_lobby, open_table, sign_in
from tests.web.site import GAMES, Site

WIDTHS: dict[str, ViewportSize] = {
    "375px": {"width": 375, "height": 812},
    "1280px": {"width": 1280, "height": 800},
}
SEED = 20261201


def _at_each_width(page: Page, name: str) -> Iterator[Audit]:
    """axe at each width in turn, once the page has laid itself out again."""
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
        found = audit(page, f"{name} at {label}")
        print(found.summary())  # the figures of docs/accessibility.md (pytest -s)
        yield found


def _in_dark_mode(page: Page, name: str) -> Audit:
    """axe at desktop width once the page follows a dark ``prefers-color-scheme`` (style.css
    has a dark scheme)."""
    page.set_viewport_size(WIDTHS["1280px"])
    page.emulate_media(color_scheme="dark")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
    found = audit(page, f"{name}, dark, at 1280px")
    print(found.summary())
    page.emulate_media(color_scheme="light")
    return found


def _in_colour_blind_mode(page: Page, name: str) -> list[Audit]:
    """axe at each width with colour-blind mode on (the header's toggle): every coloured card,
    the colour chip and the feed's colour names also show a shape and a letter."""
    toggle = button(page, "Colour-blind mode")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    try:
        return list(_at_each_width(page, f"{name}, colour-blind"))
    finally:
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")


def test_the_lobby_with_an_open_game(site: Site, open_page: OpenPage) -> None:
    host = site.register("hal")
    site.register("gus")
    game = site.api("POST", GAMES, host, {"max_players": 3}, status=201)["id"]
    page = open_page(site)
    sign_in(page, "gus")
    open_lobby(page)
    expect(page.locator(f'[data-game-id="{game}"]')).to_contain_text("hal")
    assert_accessible(list(_at_each_width(page, "lobby")))


def test_a_table_mid_round_on_the_persons_turn(site: Site, open_page: OpenPage) -> None:
    site.register("kim")
    token = site.make_staff("kim")
    body = {"max_players": 4, "seed": SEED, "bots": ["basic", "basic", "basic"]}
    game = str(site.api("POST", GAMES, token, body, status=201)["id"])
    page = open_page(site)
    sign_in(page, "kim")
    open_table(page, game)
    view = next_decision(page, site, game, token)
    assert view["status"] == "active" and view["you"]["legal_actions"], view["status"]
    expect(hand(page).locator("[data-card]")).to_have_count(len(view["you"]["hand"]))
    expect(button(page, "Draw")).to_be_visible()
    audits = list(_at_each_width(page, "table"))
    audits.append(_in_dark_mode(page, "table"))
    audits += _in_colour_blind_mode(page, "table")
    assert_accessible(audits)


def test_the_inbox_with_notifications(site: Site, open_page: OpenPage) -> None:
    token = site.register("ana")
    guest = site.register("bea")
    # A waiting game bea joins (player_joined), and one against bots (game_started, your_turn).
    waiting = site.api("POST", GAMES, token, {"max_players": 3}, status=201)["id"]
    site.api("POST", f"{GAMES}{waiting}/join/", guest)
    site.api("POST", GAMES, token, {"max_players": 2, "bots": ["basic"]}, status=201)
    page = open_page(site)
    sign_in(page, "ana")
    page.goto("/#/inbox")
    expect(page.get_by_role("button", name="Mark all read")).to_be_visible()
    expect(page.locator(".notes li").first).to_be_visible()
    assert_accessible(list(_at_each_width(page, "inbox")))


def test_the_replay_of_a_finished_game(site: Site, open_page: OpenPage) -> None:
    game, _, last = scripted.finished(site)
    page = open_page(site)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    position = page.get_by_label("Position")
    expect(position).to_have_attribute("max", str(last))
    position.fill(str(last // 2))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(last // 2))
    audits = list(_at_each_width(page, "replay"))
    audits += _in_colour_blind_mode(page, "replay")
    assert_accessible(audits)


@pytest.mark.parametrize("broken", ["an image without alt", "grey on grey"])
def test_the_check_fails_on_a_broken_page(site: Site, open_page: OpenPage, broken: str) -> None:
    """The check itself: a page broken on purpose fails it, naming the rule."""
    page = open_page(site)
    page.goto("/#/login")
    expect(page.get_by_label("Username")).to_be_visible()
    if broken == "an image without alt":
        page.evaluate("() => document.querySelector('main').append(document.createElement('img'))")
        rule = "image-alt"
    else:
        page.evaluate("() => { document.querySelector('main h1').style.color = '#bbb'; }")
        rule = "color-contrast"
    with pytest.raises(AssertionError, match=rule):
        assert_accessible([audit(page, broken)])


def test_sign_in_and_another_players_profile_with_keep_away(
    site: Site, open_page: OpenPage
) -> None:
    site.register("ivy")
    jon = site.api("GET", "/api/v1/players/me/", site.register("jon"))["id"]
    page = open_page(site)
    page.goto("/#/login")
    expect(button(page, "Play as guest")).to_be_visible()
    audits = list(_at_each_width(page, "sign in"))
    sign_in(page, "ivy")
    page.goto(f"/#/players/{jon}")
    expect(button(page, "Block")).to_be_visible()
    audits += _at_each_width(page, "profile")
    audits.append(_in_dark_mode(page, "profile"))
    assert_accessible(audits)


def test_the_own_profile_with_its_account_sections(site: Site, open_page: OpenPage) -> None:
    """The caller's own profile: sessions, push notifications, webhooks (one, its deliveries
    open, the kinds unfolded), bot account, their data and the deletion: forms with checkboxes,
    lists of buttons."""
    token = site.register("una")
    hook = {"url": "https://1.1.1.1/uno-hook", "kinds": ["your_turn"]}
    site.api("POST", "/api/v1/webhooks/", token, hook, status=201)
    page = open_page(site)
    sign_in(page, "una")
    page.goto("/#/players/una")
    expect(page.locator("section.push-kinds").get_by_label("Your turn")).to_be_checked()
    webhooks = page.locator("section.webhooks-section")
    webhooks.get_by_role("button", name="Deliveries").click()
    expect(webhooks.locator("ul.deliveries li")).to_have_text("Nothing sent yet.")
    webhooks.locator("details.kinds summary").click()
    audits = list(_at_each_width(page, "own profile"))
    audits.append(_in_dark_mode(page, "own profile"))
    assert_accessible(audits)


def test_the_account_mail_pages_and_the_profiles_address(
    site: Site, open_page: OpenPage, mailbox: Mailbox
) -> None:
    """`Forgot your password?` answered, a reset's page refusing its link (with the way to ask
    for another), a confirmation's page, and the own profile's `E-mail address` with an address
    confirmed and its removal open."""
    token = site.register("vic")
    page = open_page(site)
    main = page.locator("main")
    page.goto("/#/forgot")
    page.get_by_label("E-mail address").fill("nobody@example.com")
    button(page, "Send the link").click()
    expect(main.get_by_role("status")).not_to_be_empty()
    audits = list(_at_each_width(page, "forgot"))
    page.goto("/#/reset/not-a-token")
    page.get_by_label("New password").fill("a long enough password 9")
    button(page, "Save the password").click()
    expect(page.get_by_role("link", name="Ask for a new link")).to_be_visible()
    audits += _at_each_width(page, "reset refused")
    body = {"email": "vic@example.com", "password": PASSWORD}
    site.api("POST", "/api/v1/players/me/email/", token, body, status=202)
    page.goto(mailbox.wait_for("vic@example.com").link_in("email"))
    expect(page.locator("section.email-confirm [role=status]")).to_contain_text("vic@example.com")
    audits += _at_each_width(page, "address confirmed")
    sign_in(page, "vic")
    page.goto("/#/players/vic")
    section = page.locator("section.email-section")
    expect(section.locator("strong[data-email]")).to_have_text("vic@example.com")
    section.locator("details.email-remove summary").click()
    expect(section.locator("#email-remove-password")).to_be_visible()
    audits += _at_each_width(page, "own profile's address")
    audits.append(_in_dark_mode(page, "own profile's address"))
    assert_accessible(audits)
