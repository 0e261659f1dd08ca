"""Keeping away from someone in the browser (issue 27, item 3): from a table, a seat's name
opens that player's profile; there the person reports them, about that game and moment, and
blocks them; blocked, the other cannot take a seat at their table; unblocked, they can."""

from __future__ import annotations

from playwright.sync_api import expect

from players.models import Report
from tests.web.conftest import OpenPage
from tests.web.pages import button, open_table, register
from tests.web.screens import take
from tests.web.site import GAMES, Site


def test_a_player_reports_and_blocks_another_from_the_table(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    register(page, "ana")
    ana = site.token("ana")
    bea = site.register("bea")
    game = site.api("POST", GAMES, ana, {"max_players": 2}, status=201)
    site.api("POST", f"{GAMES}{game['id']}/join/", bea)  # full: it starts
    version = site.view(str(game["id"]), ana)["version"]

    open_table(page, str(game["id"]))
    page.locator("[data-region=seats] li[data-seat='1'] a", has_text="bea").click()
    expect(page.get_by_role("heading", name="Keep away")).to_be_visible()
    page.get_by_label("Reason").select_option("abuse")
    page.get_by_label("Note (optional)").fill("Rude in the chat")
    button(page, "Report").click()
    expect(page.get_by_role("status").filter(has_text="Reported")).to_be_visible()
    take(page, "profile-keep-away")
    report = Report.objects.get()
    assert (report.reporter.username, report.reported.username) == ("ana", "bea")
    assert (str(report.game_id), report.seq, report.reason) == (str(game["id"]), version, "abuse")
    assert report.note == "Rude in the chat"

    button(page, "Block").click()
    expect(button(page, "Unblock")).to_have_attribute("aria-pressed", "true")
    page.reload()  # the block is the server's, not the page's
    expect(button(page, "Unblock")).to_be_visible()
    waiting = site.api("POST", GAMES, ana, {"max_players": 3}, status=201)
    refused = site.api("POST", f"{GAMES}{waiting['id']}/join/", bea, status=403)
    assert refused["code"] == "blocked"

    button(page, "Unblock").click()
    expect(button(page, "Block")).to_have_attribute("aria-pressed", "false")
    site.api("POST", f"{GAMES}{waiting['id']}/join/", bea)

    # In Portuguese too.
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("heading", name="Manter distância")).to_be_visible()
    expect(page.get_by_role("button", name="Bloquear", exact=True)).to_be_visible()
    page.get_by_role("button", name="English").click()


def test_a_new_players_profile_opens_by_name_and_reports_without_a_game(
    site: Site, open_page: OpenPage
) -> None:
    """A link by name to a player met in no game and not on the leaderboard said "Not found.";
    a report from a profile opened with no game was sent about the game "undefined" and
    refused ("game: Must be a valid UUID.")."""
    page = open_page(site)
    register(page, "ana")
    site.register("Newcomer")
    page.goto("/#/players/newcomer")
    expect(page.get_by_role("heading", name="Newcomer", exact=True)).to_be_visible()
    page.get_by_label("Reason").select_option("abuse")
    button(page, "Report").click()
    expect(page.get_by_role("status").filter(has_text="Reported")).to_be_visible()
    report = Report.objects.get()
    assert (report.reported.username, report.game_id, report.seq) == ("Newcomer", None, None)
    page.goto("/#/players/nobody-here")
    expect(page.get_by_role("alert")).to_have_text("Not found.")
    page.goto("/#/players/%E0%A4%A")  # no valid encoding: no such page, not "URI malformed"
    expect(page.locator("#main")).to_contain_text("Not found")
    expect(page.locator("#main")).not_to_contain_text("malformed")


def test_a_challenge_refused_by_a_block_says_so_in_portuguese(
    site: Site, open_page: OpenPage
) -> None:
    """A refusal's words are the client's, in the reader's language: the server's `detail` is
    English only."""
    page = open_page(site)
    register(page, "ana")
    bea = site.register("bea")
    bea_id = site.api("GET", "/api/v1/players/me/", bea)["id"]
    site.api("POST", f"/api/v1/players/{bea_id}/block/", site.token("ana"), status=201)
    page.get_by_role("button", name="Português").click()
    page.goto(f"/#/players/{bea_id}")
    expect(page.get_by_role("heading", name="Manter distância")).to_be_visible()

    button(page, "Desafiar").click()

    alert = page.locator("form.challenge [role=alert]")
    expect(alert).to_have_text("Há um bloqueio entre si e bea: sem desafio.")
    page.get_by_role("button", name="English").click()
    page.reload()
    button(page, "Challenge").click()
    expect(alert).to_have_text("You and bea keep apart (a block): no challenge.")
