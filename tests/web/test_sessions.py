"""Sessions in the browser (issue 27, item 1): an expired access token is refreshed silently
(the call that met it goes through, the stored tokens change); the profile's `Sessions` lists
where one is signed in, `End session` ends another, the current one has `Sign out`; two tabs
meeting the expiry together refresh once (the cross-tab lock), and the session goes on."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Page, Route, expect

from players.models import AccessToken, RefreshToken, Session
from players.sessions import digest
from tests.support.players import PASSWORD
from tests.web.conftest import OpenPage
from tests.web.pages import register, sign_in, sign_out, signed_in
from tests.web.site import Site


def stored(page: Page, key: str) -> str:
    return str(page.evaluate(f"() => localStorage.getItem('{key}')"))


def expire(token: str) -> None:
    """The access token's expiry moved into the past, as an hour's wait would (no sleep)."""
    moved = AccessToken.objects.filter(digest=digest(token)).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert moved == 1


def test_an_expired_access_token_is_refreshed_silently(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    register(page, "rosa")
    token, refresh = stored(page, "uno.token"), stored(page, "uno.refresh")
    assert token.startswith("uat_") and refresh.startswith("urt_")
    expire(token)
    site.api("GET", "/api/v1/players/me/", token, status=401)

    page.get_by_role("link", name="Leaderboard").click()

    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()  # still signed in
    page.get_by_role("link", name="rosa").click()
    expect(page.locator("[data-player=rosa] h1")).to_have_text("rosa")
    fresh = stored(page, "uno.token")
    assert fresh != token and fresh.startswith("uat_")
    assert stored(page, "uno.refresh") != refresh
    assert site.api("GET", "/api/v1/players/me/", fresh)["username"] == "rosa"


def test_a_refresh_that_fails_signs_out(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    # The page's notifications' stream open first (what it calls unprompted, for its ticket):
    # otherwise that call could meet the expiry before the click, and sign out before it.
    with page.expect_response(lambda answer: "/players/me/stream/" in answer.url):
        register(page, "rafa")
    token = stored(page, "uno.token")
    # The refresh token is spent elsewhere first: the page's refresh is a reuse.
    site.api("POST", "/api/v1/auth/refresh/", body={"refresh": stored(page, "uno.refresh")})
    expire(token)

    page.get_by_role("link", name="Leaderboard").click()

    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert stored(page, "uno.token") == "None"


def on_own_profile_signed_in_twice(site: Site, page: Page, username: str) -> str:
    """``username`` registered on ``page`` and signed in elsewhere too (that session's access
    token), their own profile open."""
    register(page, username)
    other = site.token(username)
    page.get_by_role("link", name=username).click()
    return other


def test_the_profile_lists_sessions_and_ends_another(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    other = on_own_profile_signed_in_twice(site, page, "sara")
    section = page.locator("section.sessions")
    expect(section.get_by_role("heading", name="Sessions")).to_be_visible()
    expect(section.locator("li[data-session]")).to_have_count(2)
    current = section.locator("li[data-current=true]")
    # The address and the times are two things: a dot between them, as between the times.
    expect(current).to_contain_text(re.compile(r"127\.0\.0\.0/24 · Signed in "))
    expect(current.get_by_role("button", name="Sign out of this device")).to_have_text("Sign out")
    expect(current.get_by_role("button", name="End session")).to_have_count(0)

    section.locator("li[data-current=false]").get_by_role("button", name="End session").click()

    expect(section.get_by_role("status")).to_have_text("Session ended.")
    expect(section.locator("li[data-session]")).to_have_count(1)
    site.api("GET", "/api/v1/players/me/", other, status=401)
    assert site.api("GET", "/api/v1/players/me/", stored(page, "uno.token"))["username"] == "sara"

    current.get_by_role("button", name="Sign out of this device").click()

    expect(page.get_by_role("button", name="Sign in")).to_be_visible()


def test_changing_the_password_signs_the_other_sessions_out(
    site: Site, open_page: OpenPage
) -> None:
    """The profile's `Change password`: a wrong current password and a new one too short are
    each told, and change nothing; a good one signs the other session out (the list shows this
    device alone) and is the one that signs in from then on."""
    page = open_page(site)
    other = on_own_profile_signed_in_twice(site, page, "pia")
    form = page.locator("section.password form")
    expect(form.get_by_role("heading", name="Change password")).to_be_visible()
    sessions = page.locator("section.sessions li[data-session]")
    expect(sessions).to_have_count(2)

    form.get_by_label("Current password").fill("not my password")
    form.get_by_label("New password").fill("a new long password 5")
    form.get_by_role("button", name="Change password").click()
    expect(form.get_by_role("alert")).to_have_text("The current password is wrong.")

    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_label("New password").fill("short")
    form.get_by_role("button", name="Change password").click()
    expect(form.get_by_role("alert")).to_have_text(
        "New password: too short (at least 8 characters)."
    )
    site.api("GET", "/api/v1/players/me/", other)  # still signed in: nothing changed

    form.get_by_label("New password").fill("a new long password 5")
    form.get_by_role("button", name="Change password").click()

    expect(form.get_by_role("status")).to_have_text(
        "Password changed: your other session is signed out."
    )
    expect(form.locator("[role=alert]")).to_have_text("")
    expect(form.get_by_label("Current password")).to_have_value("")
    expect(sessions).to_have_count(1)
    site.api("GET", "/api/v1/players/me/", other, status=401)
    sign_out(page)
    sign_in(page, "pia", "a new long password 5")


def test_concurrent_calls_share_one_refresh(site: Site, open_page: OpenPage) -> None:
    """Three calls meet the expired token at once: one refresh serves them all (two would reuse
    the refresh token, which ends the session), and each call goes through."""
    page = open_page(site)
    register(page, "remo")
    token = stored(page, "uno.token")
    expire(token)

    names = page.evaluate(
        """async () => {
          const api = await import('/app/api.js');
          const answers = await Promise.all([
            api.call('GET', 'players/me/'), api.call('GET', 'games/'),
            api.call('GET', 'leaderboard/'), api.call('GET', 'players/me/sessions/'),
          ]);
          return [answers[0].username, answers[3].length];
        }"""
    )

    assert names == ["remo", 1]
    fresh = stored(page, "uno.token")
    assert fresh != token
    assert site.api("GET", "/api/v1/players/me/sessions/", fresh)[0]["current"] is True


# Two tabs start their calls at the same moment (the page's own clock, shared by both), so both
# meet the expired token together.
AT_ONCE = """(at) => {
  window.__answers = new Promise((start) => setTimeout(start, at - Date.now())).then(async () => {
    const api = await import('/app/api.js');
    try {
      const [me] = await Promise.all([api.call('GET', 'players/me/'), api.call('GET', 'games/')]);
      return me.username;
    } catch (error) {
      return `refused: ${error.code}`;
    }
  });
}"""


def test_two_tabs_refreshing_at_once_keep_the_session(site: Site, open_page: OpenPage) -> None:
    """Two tabs of one browser (one localStorage, one pair) meet the expired access token
    together: one refreshes, under the cross-tab lock `uno-refresh`; the other finds the pair
    rotated once it holds the lock and uses it. Two refreshes would spend the refresh token
    twice, a reuse that ends the session and signs both tabs out."""
    # Both tabs on a page that calls nothing by itself, each with its notifications' stream
    # open (what a tab calls unprompted), so the calls below are the first to meet the expiry.
    first = open_page(site)
    with first.expect_response(lambda answer: "/players/me/stream/" in answer.url):
        register(first, "tess")
    first.get_by_role("link", name="Leaderboard").click()
    second = first.context.new_page()
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    with second.expect_response(lambda answer: "/players/me/stream/" in answer.url):
        second.goto("/#/leaderboard")
    for page in (first, second):
        expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    token, refresh = stored(first, "uno.token"), stored(first, "uno.refresh")
    assert stored(second, "uno.token") == token
    expire(token)

    at = int(first.evaluate("() => Date.now()")) + 300
    for page in (first, second):
        page.evaluate(AT_ONCE, at)
    answers = [page.evaluate("() => window.__answers") for page in (first, second)]

    assert answers == ["tess", "tess"]
    session = Session.objects.get(user__username="tess")
    assert session.ended_at is None, session.ended_why
    # One refresh in all: the sign-in's refresh token, and the one it was traded for.
    assert RefreshToken.objects.filter(session=session).count() == 2
    fresh = stored(first, "uno.token")
    assert fresh != token and stored(second, "uno.token") == fresh
    assert stored(second, "uno.refresh") != refresh
    for page in (first, second):  # both still signed in, and the pages go on
        page.get_by_role("link", name="tess").click()
        expect(page.locator("[data-player=tess] h1")).to_have_text("tess")
        expect(page.get_by_role("button", name="Sign out", exact=True)).to_be_visible()
    assert site.api("GET", "/api/v1/players/me/", fresh)["username"] == "tess"
    assert not errors, errors


# What another tab's refresh left in IndexedDB (web/app/refresh.js, `lastRotation`).
HANDOFF = """async ([spent, access, refresh]) => {
  const db = await new Promise((done, failed) => {
    const opening = indexedDB.open('uno-refresh', 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('last');
    opening.onsuccess = () => done(opening.result);
    opening.onerror = () => failed(opening.error);
  });
  await new Promise((done, failed) => {
    const tx = db.transaction('last', 'readwrite');
    tx.objectStore('last').put({ spent, access, refresh }, 'pair');
    tx.oncomplete = done;
    tx.onerror = failed;
  });
  db.close();
}"""


def test_a_rotation_not_yet_in_this_tabs_copy_is_used_not_refreshed_again(
    site: Site, open_page: OpenPage
) -> None:
    """A tab's localStorage is a copy that another tab's writes reach a few milliseconds late,
    possibly after the lock passed on: the tab holding it finds the last rotation in IndexedDB
    (which traded the very refresh token it holds) and takes that pair, not refreshing again."""
    page = open_page(site)
    register(page, "tim")
    token, refresh = stored(page, "uno.token"), stored(page, "uno.refresh")
    # "Another tab" rotated the pair; only IndexedDB says so yet.
    rotated = site.api("POST", "/api/v1/auth/refresh/", body={"refresh": refresh})
    page.evaluate(HANDOFF, [refresh, rotated["access"], rotated["refresh"]])
    expire(token)

    name = page.evaluate(
        "async () => (await (await import('/app/api.js')).call('GET', 'players/me/')).username"
    )

    assert name == "tim"
    assert stored(page, "uno.token") == rotated["access"]
    assert stored(page, "uno.refresh") == rotated["refresh"]
    session = Session.objects.get(user__username="tim")
    assert session.ended_at is None, session.ended_why
    assert RefreshToken.objects.filter(session=session).count() == 2  # no second refresh


def test_a_sign_in_made_while_a_sign_out_is_under_way_is_kept(
    site: Site, open_page: OpenPage
) -> None:
    """Ana signs out and Cy signs in on the same page before the server has answered Ana's sign
    out: the answer, when it comes, ends Ana's session only (it signed Cy out too)."""
    page = open_page(site)
    register(page, "ana")
    ana = stored(page, "uno.token")
    site.register("cy")
    held: list[Route] = []
    page.route("**/api/v1/auth/logout/", lambda route: held.append(route))  # held by the test

    with page.expect_request("**/api/v1/auth/logout/"):
        page.get_by_role("button", name="Sign out").click()
    sign_in(page, "cy")
    cy = stored(page, "uno.token")
    with page.expect_response("**/api/v1/auth/logout/"):
        held[0].continue_()

    page.get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    signed_in(page, "cy")
    assert stored(page, "uno.token") == cy
    assert site.api("GET", "/api/v1/players/me/", cy)["username"] == "cy"
    site.api("GET", "/api/v1/players/me/", ana, status=401)  # Ana's session did end
