"""Sessions in the browser (issue 27, item 1): an expired access token is refreshed silently
(the call that met it goes through, the stored tokens change); the profile's `Sessions` lists
where one is signed in, `End session` ends another, the current one has `Sign out`."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Page, expect

from players.models import AccessToken
from players.sessions import digest
from tests.web.conftest import OpenPage
from tests.web.pages import register
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
    register(page, "rafa")
    token = stored(page, "uno.token")
    # The refresh token is spent elsewhere first: the page's refresh is a reuse.
    site.api("POST", "/api/v1/auth/refresh/", body={"refresh": stored(page, "uno.refresh")})
    expire(token)

    page.get_by_role("link", name="Leaderboard").click()

    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert stored(page, "uno.token") == "None"


def test_the_profile_lists_sessions_and_ends_another(site: Site, open_page: OpenPage) -> None:
    page = open_page(site)
    register(page, "sara")
    other = site.token("sara")  # signed in elsewhere too
    page.get_by_role("link", name="sara").click()
    section = page.locator("section.sessions")
    expect(section.get_by_role("heading", name="Sessions")).to_be_visible()
    expect(section.locator("li[data-session]")).to_have_count(2)
    current = section.locator("li[data-current=true]")
    expect(current.get_by_role("button", name="Sign out of this device")).to_have_text("Sign out")
    expect(current.get_by_role("button", name="End session")).to_have_count(0)

    section.locator("li[data-current=false]").get_by_role("button", name="End session").click()

    expect(section.get_by_role("status")).to_have_text("Session ended.")
    expect(section.locator("li[data-session]")).to_have_count(1)
    site.api("GET", "/api/v1/players/me/", other, status=401)
    assert site.api("GET", "/api/v1/players/me/", stored(page, "uno.token"))["username"] == "sara"

    current.get_by_role("button", name="Sign out of this device").click()

    expect(page.get_by_role("button", name="Sign in")).to_be_visible()


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
