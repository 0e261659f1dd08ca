"""The ways in (issue 25, items 2, 3 and 7): `Play against bots` in the lobby opens a started table
against three bots in one click; `Play as guest` plays with no account, and the guest keeps the
account (its games with it) from their profile; the page installs (a manifest and its icons) and
its shell works offline, saying so, through the service worker. Screenshots of the sign-in page
at both widths (the lobby's are test_lobby's)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.players import PASSWORD
from tests.web.conftest import OpenPage
from tests.web.pages import (
    assert_no_foreign_cards,
    at_version,
    button,
    open_lobby,
    register,
    sign_in,
    table,
)
from tests.web.screens import take
from tests.web.site import Site


def token_of(page: Page) -> str:
    return str(page.evaluate("() => localStorage.getItem('uno.token')"))


def play_against_bots(page: Page) -> str:
    """Press `Play against bots` in the lobby; the game's id, once its table is active."""
    button(page, "Play against bots").click()
    expect(page).to_have_url(re.compile(r"#/game/[^/]+$"))
    expect(table(page)).to_have_attribute("data-game-status", "active")
    return page.url.rsplit("/", 1)[1]


def assert_against_three_bots(page: Page, site: Site, game: str, token: str) -> dict[str, Any]:
    view = site.view(game, token)
    assert view["status"] == "active"
    assert [bool(seat.get("bot")) for seat in view["seats"]] == [False, True, True, True]
    assert view["seats"][0]["player"]["id"] == site.api("GET", "/api/v1/players/me/", token)["id"]
    at_version(page, view["version"])
    expect(page.locator("[data-region=seats] li[data-seat]")).to_have_count(4)
    assert_no_foreign_cards(page, site, game, token)
    return view


def guest_header(page: Page) -> Any:
    return page.locator("#header [data-guest]")


def test_play_against_bots_opens_a_started_table_with_three_bots(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "pia")
    open_lobby(page)  # (its screenshots are test_lobby's, Play against bots at the top)
    game = play_against_bots(page)

    view = assert_against_three_bots(page, site, game, site.token("pia"))
    assert view["settings"]["max_players"] == 4


def test_a_guest_plays_keeps_the_account_and_signs_in_with_it_later(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    page.goto("/#/login")
    take(page, "signin")  # the sign-in page with Play as guest
    button(page, "Play as guest").click()
    expect(button(page, "Sign out")).to_be_visible()
    expect(guest_header(page)).to_contain_text("guest")
    token = token_of(page)
    guest = site.api("GET", "/api/v1/players/me/", token)
    assert guest["guest"] is True and guest["username"].startswith("guest-")
    expect(guest_header(page)).to_contain_text(guest["username"])

    # Straight from signing in to a game: the lobby, then one click.
    expect(button(page, "Play against bots")).to_be_visible()
    game = play_against_bots(page)
    assert_against_three_bots(page, site, game, token)

    # The guest keeps the account from their profile (the header's name links to it).
    guest_header(page).click()
    expect(page).to_have_url(re.compile(rf"#/players/{guest['username']}$"))
    page.get_by_label("Username").fill("gina")
    page.get_by_label("Password").fill(PASSWORD)
    button(page, "Keep my account").click()
    expect(page.get_by_role("status").filter(has_text="Your account is kept")).to_contain_text(
        "gina"
    )
    expect(guest_header(page)).to_have_count(0)
    expect(page.locator("#header").get_by_role("link", name="gina", exact=True)).to_be_visible()
    expect(button(page, "Keep my account")).to_have_count(0)
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('uno.user'))")
    assert stored["username"] == "gina" and not stored.get("guest"), stored
    me = site.api("GET", "/api/v1/players/me/", token)
    assert (me["id"], me["username"], me["guest"]) == (guest["id"], "gina", False)

    # Signed out and in again with the chosen name: the game is still theirs.
    button(page, "Sign out").click()
    expect(page).to_have_url(re.compile(r"#/login$"))
    sign_in(page, "gina")
    open_lobby(page)
    mine = page.get_by_role("list", name="Your games").locator(f'[data-game-id="{game}"]')
    expect(mine).to_be_visible()
    mine.get_by_role("link", name="Open", exact=True).click()
    expect(page).to_have_url(re.compile(rf"#/game/{game}$"))
    expect(table(page)).to_have_attribute("data-game-status", "active")
    assert_no_foreign_cards(page, site, game, site.token("gina"))


def test_a_guest_keeping_the_account_is_told_what_is_wrong(site: Site, open_page: OpenPage) -> None:
    site.register("taken")
    page = open_page(site)
    page.goto("/#/register")
    button(page, "Play as guest").click()
    expect(guest_header(page)).to_be_visible()
    guest_header(page).click()
    # The form's own fields: until the profile is drawn, the sign-up page's fields of the same
    # names may still be on screen.
    form = page.locator(".keep-account")
    alert = form.locator("[role=alert]")

    form.get_by_label("Username").fill("Taken")
    form.get_by_label("Password").fill(PASSWORD)
    button(page, "Keep my account").click()
    expect(alert).to_have_text("That username is taken.")  # username_taken, in the page's words

    form.get_by_label("Username").fill("fresh")
    form.get_by_label("Password").fill("12345678")
    button(page, "Keep my account").click()
    expect(alert).to_have_text("Password: too common; cannot be only digits.")
    expect(guest_header(page)).to_be_visible()  # still a guest
    assert site.api("GET", "/api/v1/players/me/", token_of(page))["guest"] is True


def test_the_page_is_installable_its_manifest_and_icons_served(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    page.goto("/#/login")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    assert page.locator('meta[name="theme-color"]').get_attribute("content")
    answer = page.request.get(href)
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert (manifest["name"], manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "UNO",
        "/",
        "/",
        "standalone",
    )
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    for icon in manifest["icons"]:
        served = page.request.get(icon["src"])
        assert served.status == 200, icon
        assert served.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/svg+xml":
            assert icon["sizes"] == "any" and b"<svg" in served.body(), icon
        else:  # a PNG of the size it names, as the browser decodes it
            assert icon["type"] == "image/png", icon
            assert natural_size(page, icon["src"]) == icon["sizes"], icon
    # iOS's home screen reads the page's apple-touch-icon, a 180 px PNG.
    apple = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert apple and natural_size(page, apple) == "180x180"


def natural_size(page: Page, src: str) -> str:
    return str(
        page.evaluate(
            """(src) => new Promise((resolve, reject) => {
              const image = new Image();
              image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
              image.onerror = () => reject(new Error('not an image: ' + src));
              image.src = src;
            })""",
            src,
        )
    )


def test_offline_the_shell_says_so_and_back_online_it_plays(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "ola")
    open_lobby(page)
    # The service worker installed (the shell cached) and controlling the page.
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    offline = page.locator("#offline")
    expect(offline).to_be_empty()

    page.context.set_offline(True)
    page.reload()
    expect(offline).to_have_text(re.compile(r"^You are offline"))
    expect(offline).to_have_attribute("role", "status")
    expect(button(page, "Play against bots")).to_be_visible()  # the shell, from the cache
    expect(page.locator("#header").get_by_role("link", name="ola", exact=True)).to_be_visible()
    # What answered is the worker's cache: a file it did not keep is not there at all.
    fetched = "(path) => fetch(path).then((r) => r.status, () => 'failed')"
    assert page.evaluate(fetched, "/app/main.js") == 200
    assert page.evaluate(fetched, "/app/not-kept.js") == "failed"

    page.context.set_offline(False)
    expect(offline).to_be_empty()
    expect(page.get_by_role("list", name="Your games")).to_contain_text("None yet.")
    game = play_against_bots(page)
    assert_against_three_bots(page, site, game, site.token("ola"))


def test_back_online_a_page_being_filled_in_keeps_what_was_typed(
    site: Site, open_page: OpenPage
) -> None:
    """Back online, every page but the table was drawn again: a guest typing the name to keep
    their account lost it (a call that failed on the network, then the connection back)."""
    page = open_page(site)
    page.goto("/#/login")
    button(page, "Play as guest").click()
    guest_header(page).click()
    form = page.locator(".keep-account")
    form.get_by_label("Username").fill("gina")

    page.context.set_offline(True)
    offline = page.locator("#offline")
    expect(offline).to_have_text(re.compile(r"^You are offline"))
    page.context.set_offline(False)
    expect(offline).to_be_empty()

    expect(form.get_by_label("Username")).to_have_value("gina")


def test_the_sign_in_page_of_someone_signed_in_says_so_and_keeps_a_guests_account(
    site: Site, open_page: OpenPage
) -> None:
    """Back on the sign-in page (the browser's Back), a signed-in guest was shown Play as guest
    as if signed out: a click made a new guest, and the old one, with no password, was lost."""
    page = open_page(site)
    page.goto("/#/login")
    button(page, "Play as guest").click()
    expect(guest_header(page)).to_be_visible()
    name = site.api("GET", "/api/v1/players/me/", token_of(page))["username"]

    page.go_back()
    expect(page).to_have_url(re.compile(r"#/login$"))
    note = page.locator(f"[data-signed-in='{name}']")
    expect(note).to_contain_text(f"You are signed in as {name}.")
    expect(note).to_contain_text("keep it on your profile before you use another account")
    expect(button(page, "Play as guest")).to_have_count(0)
    expect(page.get_by_label("Password")).to_be_visible()  # for another account
    page.goto("/#/register")
    expect(note).to_be_visible()
    expect(button(page, "Play as guest")).to_have_count(0)
    page.get_by_role("button", name="Português").click()
    expect(page.locator("[data-signed-in]")).to_contain_text(f"Tem sessão iniciada como {name}.")
    page.get_by_role("button", name="English").click()
    page.get_by_role("link", name="Go to the lobby").click()
    expect(button(page, "Play against bots")).to_be_visible()
    assert site.api("GET", "/api/v1/players/me/", token_of(page))["username"] == name

    # Signed out, the page is a stranger's again: Play as guest, no note.
    button(page, "Sign out").click()
    expect(page).to_have_url(re.compile(r"#/login$"))
    expect(button(page, "Play as guest")).to_be_visible()
    expect(page.locator("[data-signed-in]")).to_have_count(0)
