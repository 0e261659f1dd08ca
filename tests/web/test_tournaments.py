"""Tournaments in the browser (issue 26, item 4): a host creates one from the Tournaments page,
players find it in the list and join (one withdraws), the start comes, and each person's page,
told by the tournament's stream, offers their table, which opens with their hand. The page
speaks Portuguese too."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Page, expect

from games.engine.bots import choose
from games.models import Tournament
from tests.web.axe import assert_accessible, audit
from tests.web.conftest import OpenPage
from tests.web.pages import button, hand, register, table
from tests.web.screens import take
from tests.web.site import Site
from tests.web.test_layout import shoot

TOURNAMENT_STREAM = re.compile(r"/api/v1/tournaments/[^/]+/stream/")


def _open_from_the_list(page: Page, name: str) -> None:
    page.goto("/#/tournaments")
    page.get_by_role("link", name=name, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def _play_out(site: Site, game: str, tokens: list[str]) -> dict[str, Any]:
    """Both seats play the game through the server's API until it ends (random legal play)."""
    rng = random.Random(26)
    for _ in range(5000):
        views = [site.view(game, token) for token in tokens]
        if views[0]["status"] != "active":
            return views[0]
        for token, view in zip(tokens, views, strict=True):
            if view["you"]["legal_actions"]:
                action = choose(rng, view, prefer_play=0.95)
                path, body = (
                    f"/api/v1/games/{game}/actions/",
                    {**action, "expected_version": view["version"]},
                )
                answered, data = site.server.request("POST", path, token, body, timeout=30)
                assert answered in (200, 409), (answered, data)  # 409: the other moved first
                break
    raise AssertionError("the game does not end")


def test_people_join_a_tournament_and_reach_their_table(site: Site, open_page: OpenPage) -> None:
    ana, bea, cy = open_page(site), open_page(site), open_page(site)
    ana_streams: list[str] = []  # every request of ana's page for a tournament's stream
    ana.on(
        "request",
        lambda asked: (
            ana_streams.append(asked.url) if TOURNAMENT_STREAM.search(asked.url) else None
        ),
    )
    streamed: list[int] = []  # the status of each answer of a tournament's stream, every page
    for page, name in ((ana, "ana"), (bea, "bea"), (cy, "cy")):
        page.on(
            "response",
            lambda answer: (
                streamed.append(answer.status) if TOURNAMENT_STREAM.search(answer.url) else None
            ),
        )
        register(page, name)

    ana.get_by_role("link", name="Tournaments", exact=True).click()
    expect(ana.get_by_text("No tournament yet.")).to_be_visible()
    ana.get_by_label("Name", exact=True).fill("Friday cup")
    ana.get_by_label("Format", exact=True).select_option("swiss")
    ana.get_by_label("Players per table", exact=True).fill("2")
    ana.get_by_label("Rounds", exact=True).fill("1")
    ana.get_by_label("Target score", exact=True).fill("1")
    ana.get_by_role("button", name="Create a tournament").click()
    expect(ana).to_have_url(re.compile(r"#/tournaments/[^/]+$"))
    tournament = ana.url.rsplit("/", 1)[1]
    made = Tournament.objects.get(pk=tournament)
    assert (made.format, made.table_size, made.rounds, made.host.username) == ("swiss", 2, 1, "ana")
    assert made.settings["target_score"] == 1
    button(ana, "Join").click()
    expect(ana.get_by_text("You take part.")).to_be_visible()
    expect(ana.locator("main")).to_contain_text(re.compile(r"Swiss · 1 player · starts \d"))

    _open_from_the_list(bea, "Friday cup")
    button(bea, "Join").click()
    expect(bea.get_by_text("You take part.")).to_be_visible()
    _open_from_the_list(cy, "Friday cup")
    button(cy, "Join").click()
    button(cy, "Withdraw").click()
    expect(cy.get_by_text("You withdrew: no new table for you.")).to_be_visible()
    expect(bea.locator("main")).to_contain_text(re.compile(r"Swiss · 2 players · starts \d"))
    take(bea, "tournament-upcoming")

    # Its start comes (the stored start moves back): ana's page reads the tournament again and
    # starts it; bea's page learns of her table from the tournament's stream, unreloaded.
    bea.evaluate(
        "() => { window.__kinds = [];"
        " addEventListener('uno:notification', (e) => window.__kinds.push(e.detail.kind)); }"
    )
    Tournament.objects.filter(pk=tournament).update(starts_at=timezone.now() - timedelta(seconds=1))
    ana.reload()
    for page in (ana, bea):
        expect(page.locator("[data-status]").first).to_have_attribute("data-status", "running")
        expect(page.locator("[data-region=your-table]")).to_be_visible()
    expect(cy.locator("[data-region=your-table]")).to_have_count(0)
    expect(bea.locator("[data-round='1'] [data-game-id]")).to_have_count(1)
    expect(ana.locator("main")).to_contain_text(re.compile(r"Swiss · 2 players · started \d"))
    # Her page says the start and her table: no toast says them again (the start's is shown, or
    # not, as it comes: the notifications heard, none of the tournament's is in a toast).
    bea.wait_for_function(
        "() => ['tournament_starting', 'tournament_table'].every((k) => window.__kinds.includes(k))"
    )
    assert bea.locator("#toasts .toast[data-tournament]").count() == 0  # now, not after 8 s
    take(bea, "tournament-running")
    # Told by the stream itself (its ticket taken), not by re-reading after a refused stream.
    assert streamed and set(streamed) == {200}, streamed

    bea.locator("[data-region=your-table]").click()
    expect(bea).to_have_url(re.compile(r"#/game/[^/]+$"))
    expect(table(bea)).to_have_attribute("data-game-status", "active")
    expect(hand(bea).locator("[data-card]")).to_have_count(7)
    game = bea.url.rsplit("/", 1)[1]
    seated = {seat["player"]["username"] for seat in site.view(game, site.token("bea"))["seats"]}
    assert seated == {"ana", "bea"}

    # The table is played out: ana's page, on the tournament, shows the standings and the end.
    ended = _play_out(site, game, [site.token("ana"), site.token("bea")])
    assert ended["status"] == "finished"
    standings = ana.locator("[data-region=standings] tbody tr")
    expect(standings).to_have_count(3)  # cy, withdrawn, stays in them with no game
    expect(standings.last).to_contain_text("cy")
    winner = next(
        s["player"]["username"] for s in ended["seats"] if s["seat"] == ended["winner_seat"]
    )
    expect(standings.first).to_contain_text(winner)
    expect(standings.first.locator("td").nth(1)).to_have_text("1")  # table size - 1 for first
    expect(ana.locator("[data-status]").first).to_have_attribute("data-status", "finished")
    take(ana, "tournament-finished")
    # Its stream said it is over (stream_ended, tournament_finished): the page follows it no
    # more, and opened again it reads the detail and opens no stream (it had reconnected into
    # the same ending over and over).
    followed = len(ana_streams)
    ana.reload()
    expect(ana.locator("[data-status]").first).to_have_attribute("data-status", "finished")
    expect(standings).to_have_count(3)
    assert len(ana_streams) == followed, ana_streams[followed:]
    ana.set_viewport_size({"width": 375, "height": 812})
    assert_accessible([audit(ana, "tournament at 375px")])
    ana.goto("/#/tournaments")
    expect(ana.locator(f"[data-tournament-id='{tournament}']")).to_be_visible()
    assert_accessible([audit(ana, "tournaments at 375px")])

    # In Portuguese.
    cy.goto("/#/tournaments")
    cy.get_by_role("button", name="Português").click()
    expect(cy.get_by_role("heading", level=1)).to_have_text("Torneios")
    expect(cy.get_by_role("button", name="Criar um torneio")).to_be_visible()
    expect(cy.locator(f"[data-tournament-id='{tournament}']")).to_contain_text("Terminado")


def test_an_entrant_is_told_a_tournament_without_enough_players_did_not_take_place(
    site: Site, open_page: OpenPage
) -> None:
    """Its one entrant's inbox said "place 1" of a tournament that never began."""
    page = open_page(site)
    register(page, "ana")
    host = site.register("hostess")
    starts = (timezone.now() + timedelta(hours=1)).isoformat()
    body = {"name": "Lonely cup", "format": "swiss", "rounds": 1, "starts_at": starts}
    made = site.api("POST", "/api/v1/tournaments/", host, body=body, status=201)
    site.api("POST", f"/api/v1/tournaments/{made['id']}/join/", site.token("ana"))
    Tournament.objects.filter(pk=made["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert site.api("GET", f"/api/v1/tournaments/{made['id']}/", host)["status"] == "finished"

    page.goto("/#/inbox")
    note = page.get_by_text("Lonely cup: did not take place, too few players")
    expect(note).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("place 1")
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_text("Lonely cup: não se realizou, jogadores insuficientes")).to_be_visible()


def test_joining_and_withdrawing_by_keyboard_keeps_the_focus(
    site: Site, open_page: OpenPage
) -> None:
    """The page drawn again after Join put the focus back at the top of the page: the next Tab
    began again at 'Skip to content'. One who withdrew may join again while it is open: the page
    offered no Join to them."""
    page = open_page(site)
    register(page, "ana")
    host = site.register("hostess")
    starts = (timezone.now() + timedelta(hours=1)).isoformat()
    body = {"name": "Keys cup", "format": "swiss", "rounds": 1, "starts_at": starts}
    site.api("POST", "/api/v1/tournaments/", host, body=body, status=201)
    _open_from_the_list(page, "Keys cup")

    button(page, "Join").focus()
    page.keyboard.press("Enter")
    expect(button(page, "Withdraw")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_text("You withdrew")).to_be_visible()
    expect(button(page, "Join")).to_be_focused()
    page.keyboard.press("Enter")
    expect(button(page, "Withdraw")).to_be_focused()


def test_an_arena_says_when_it_ends_and_counts_down_while_it_runs(
    site: Site, open_page: OpenPage
) -> None:
    """An arena's page said when it started, never when it ends (its `ends_at`): before its start
    it says the end, while it runs the time left too, ticking; in the list as well."""
    page = open_page(site)
    register(page, "ana")
    host = site.register("hostess")
    starts = (timezone.now() + timedelta(hours=1)).isoformat()
    body = {"name": "Blitz", "format": "arena", "minutes": 30, "table_size": 2, "starts_at": starts}
    made = site.api("POST", "/api/v1/tournaments/", host, body=body, status=201)
    _open_from_the_list(page, "Blitz")
    ends = page.locator("main [data-region=ends]")
    expect(ends).to_have_text(re.compile(r"^ends \d{1,2} \w{3} \d{4}, \d\d:\d\d$"))
    expect(ends.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
    when = site.api("GET", f"/api/v1/tournaments/{made['id']}/", host)["ends_at"]
    assert when and ends.locator("time").get_attribute("datetime") == when

    # It starts (two players, its start passed: the page's read starts it): the time left.
    for token in (site.token("ana"), site.register("bea")):
        site.api("POST", f"/api/v1/tournaments/{made['id']}/join/", token)
    Tournament.objects.filter(pk=made["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    page.reload()
    expect(page.locator("[data-status=running]").first).to_be_visible()
    expect(ends).to_have_text(re.compile(r"^ends .+ · (30:00|29:[0-5]\d) left$"))
    first = ends.inner_text()
    expect(ends).not_to_have_text(first)  # ticking
    shoot(page, "tournament-arena", "en")
    page.get_by_role("button", name="Português").click()
    pt = r"^termina a \d\d/\d\d/\d{4}, \d\d:\d\d · faltam 29:[0-5]\d$"
    expect(ends).to_have_text(re.compile(pt))
    shoot(page, "tournament-arena", "pt")
    page.goto("/#/tournaments")
    row = page.locator(f"[data-tournament-id='{made['id']}']")
    expect(row.locator("[data-region=ends]")).to_have_text(re.compile(r"^termina a \d\d/"))
