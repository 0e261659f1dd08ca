"""Dates in the page's language, not the browser's: a browser set to German (Playwright's
``locale``, which is ``navigator.language`` and Intl's default) shows a page in English with
British dates and, after the header's switch, in Portuguese with Portuguese ones, on the lobby's
finished games, a profile and the inbox. And a finished game's row in the lobby says who won,
with whom and when it ended (the list item's ``finished_at``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, expect

from games.models import Game
from notifications.models import Notification
from tests.web import scripted
from tests.web.pages import open_lobby, sign_in, sign_out
from tests.web.screens import take
from tests.web.site import WAIT, Site
from tests.web.test_layout import switch

# Fixed moments, in another year than the test's (so the lobby's day carries its year), late
# enough in the day that a time zone other than UTC would show another date.
ENDED = datetime(2025, 12, 4, 21, 30, tzinfo=UTC)
JOINED = datetime(2025, 3, 7, 22, 5, tzinfo=UTC)
NOTIFIED = datetime(2025, 12, 4, 21, 45, tzinfo=UTC)


@pytest.fixture
def german(browser: Browser, site: Site) -> Iterator[Page]:
    """A page in a browser whose language is German, in UTC; it fails the test on a page error."""
    context = browser.new_context(
        base_url=site.url,
        viewport={"width": 1280, "height": 900},
        locale="de-DE",
        timezone_id="UTC",
    )
    context.set_default_timeout(WAIT * 1000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def finished_row(page: Page) -> Locator:
    return page.get_by_role("list", name="Finished games").locator("li[data-game-id]")


def test_a_finished_game_says_who_won_with_whom_and_when_in_the_page_language(
    site: Site, german: Page
) -> None:
    game, _, _ = scripted.finished(site)  # Ana won against Bea
    Game.objects.filter(pk=game).update(finished_at=ENDED)
    assert german.evaluate("() => navigator.language") == "de-DE"

    sign_in(german, "bea")
    open_lobby(german)
    row = finished_row(german)
    expect(row).to_have_count(1)
    strong = row.locator("strong")
    expect(strong).to_have_text("Won by ana")
    expect(row.locator("time")).to_have_text("ended 4 December 2025")
    expect(row.locator(".game-info")).to_contain_text("Won by ana · ended 4 December 2025")
    expect(row).not_to_contain_text("players")
    expect(row).not_to_contain_text("Dezember")
    expect(row.get_by_role("link", name="Replay")).to_have_attribute("href", f"#/replay/{game}")
    take(german, "lobby-finished", showing=row)

    switch(german, "pt")
    row = german.get_by_role("list", name="Jogos terminados").locator("li[data-game-id]")
    expect(row.locator(".game-info")).to_contain_text(
        "Vitória de ana · terminou a 4 de dezembro de 2025"
    )
    expect(row).not_to_contain_text("jogadores")

    # The inbox says it too: the notification names the winner.
    german.goto("/#/inbox")
    expect(german.locator(".notes li").filter(has_text="O jogo terminou")).to_contain_text(
        "O jogo terminou · vitória de ana"
    )


def test_the_winner_reads_you_won_and_the_others_by_name(site: Site, german: Page) -> None:
    game, _, _ = scripted.finished(site)
    Game.objects.filter(pk=game).update(finished_at=ENDED)
    sign_in(german, "ana")
    open_lobby(german)
    expect(finished_row(german).locator(".game-info")).to_contain_text(
        "You won · with bea · ended 4 December 2025"
    )
    switch(german, "pt")
    row = german.get_by_role("list", name="Jogos terminados").locator("li[data-game-id]")
    expect(row.locator(".game-info")).to_contain_text(
        "Ganhou · com bea · terminou a 4 de dezembro de 2025"
    )


def test_a_profile_and_the_inbox_write_dates_in_the_page_language(site: Site, german: Page) -> None:
    scripted.finished(site)  # notifications for Bea: the game started, it finished
    bea = User.objects.get(username="bea")
    User.objects.filter(pk=bea.pk).update(date_joined=JOINED)
    assert Notification.objects.filter(player=bea).update(at=NOTIFIED) > 0

    sign_in(german, "bea")
    german.goto("/#/players/bea")
    joined = german.locator(".profile p").filter(has_text=re.compile(r"^(Joined|Registado em) "))
    expect(joined).to_have_text("Joined 7 Mar 2025")
    german.goto("/#/inbox")
    times = german.locator(".notes time")
    expect(times.first).to_have_text("4 Dec 2025, 21:45")

    switch(german, "pt")
    expect(times.first).to_have_text("04/12/2025, 21:45")
    german.goto("/#/players/bea")
    expect(joined).to_have_text("Registado em 07/03/2025")

    # What the browser's own language would have said, nowhere.
    switch(german, "en")
    expect(joined).to_have_text("Joined 7 Mar 2025")
    expect(german.locator("main")).not_to_contain_text("07.03.2025")


def test_a_team_game_names_the_winning_team(site: Site, german: Page) -> None:
    """Ana and Cy (seats 0 and 2) against Bea and Dan: Bea and Dan resign, Ana's team wins."""
    tokens = {name: site.register(name) for name in ("ana", "bea", "cy", "dan")}
    game = site.api(
        "POST", "/api/v1/games/", tokens["ana"], {"max_players": 4, "teams": 2}, status=201
    )["id"]
    for name in ("bea", "cy", "dan"):
        site.api("POST", f"/api/v1/games/{game}/join/", tokens[name])
    for name in ("bea", "dan"):
        site.api("POST", f"/api/v1/games/{game}/resign/", tokens[name])
    Game.objects.filter(pk=game).update(finished_at=ENDED)
    assert Game.objects.get(pk=game).winner_team == 0

    sign_in(german, "bea")
    open_lobby(german)
    expect(finished_row(german).locator(".game-info")).to_contain_text(
        "Won by ana and cy · with dan · ended 4 December 2025"
    )
    switch(german, "pt")
    row = german.get_by_role("list", name="Jogos terminados").locator("li[data-game-id]")
    expect(row.locator(".game-info")).to_contain_text(
        "Vitória de ana e cy · com dan · terminou a 4 de dezembro de 2025"
    )
    switch(german, "en")
    sign_out(german)
    sign_in(german, "cy")
    open_lobby(german)
    expect(finished_row(german).locator(".game-info")).to_contain_text(
        "Your team won · with ana, bea, dan"
    )
