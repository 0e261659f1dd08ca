"""A finished game in the replay viewer: stepping forward and back and dragging the position
shows, at each point, every hand and the discard pile as the replay API has them there."""

from __future__ import annotations

from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import feed_lines, sign_in
from tests.web.screens import take
from tests.web.site import Site
from tests.web.test_layout import shoot
from tests.web.test_table_touch import FINGER


def _cards_at(replayed: dict[str, Any]) -> Counter[str]:
    """Every card the replay API shows at a point: each seat's hand and the top card."""
    shown: Counter[str] = Counter()
    for seat in replayed["seats"]:
        shown.update(seat.get("hand", []))
    if replayed.get("round") and replayed["round"].get("top_card"):
        shown[replayed["round"]["top_card"]] += 1
    return shown


def _shows(page: Page, site: Site, game: str, token: str, at: int) -> None:
    """The board as the replay API has it at ``at``, and the feed of the events up to it."""
    position = page.get_by_label("Position")
    expect(position).to_have_value(str(at))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(at))
    board = page.locator(".replay-stage [data-card]").all()
    shown = Counter(str(card.get_attribute("data-card")) for card in board)
    assert shown == _cards_at(site.replay(game, token, at)), at
    expect(page.locator("[data-region=feed] li").first).to_have_attribute("data-seq", str(at))
    log = {event["seq"]: event["type"] for event in site.events(game, token)}
    lines = feed_lines(page)
    assert [line["seq"] for line in lines] == list(range(at, 0, -1)), at
    assert all(line["type"] == log[line["seq"]] for line in lines), lines


def _replay_of_a_finished_game(site: Site, open_page: OpenPage) -> tuple[Page, str, list[str], int]:
    """bea's page on the replay of a scripted finished game: the page, the game, the players'
    tokens and the game's last event."""
    game, tokens, last = scripted.finished(site)
    page = open_page(site)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    expect(page.get_by_label("Position")).to_have_attribute("max", str(last))
    return page, game, tokens, last


def test_a_finished_game_steps_through_in_the_replay_viewer(
    site: Site, open_page: OpenPage
) -> None:
    page, game, tokens, last = _replay_of_a_finished_game(site, open_page)
    position = page.get_by_label("Position")
    start = int(position.input_value())
    _shows(page, site, game, tokens[1], start)

    forward, back = (page.get_by_role("button", name=n, exact=True) for n in ("Forward", "Back"))
    at = start
    for _ in range(6):
        forward.click()
        at += 1
        _shows(page, site, game, tokens[1], at)
    for _ in range(2):
        back.click()
        at -= 1
        _shows(page, site, game, tokens[1], at)
    # Dragging the slider: anywhere, the end included.
    for point in (last // 2, last):
        position.fill(str(point))
        _shows(page, site, game, tokens[1], point)
        if point < last:
            take(page, "replay")  # halfway: both hands still full
    expect(forward).to_be_disabled()


def test_the_replays_position_takes_a_finger_on_a_phone(site: Site, open_page: OpenPage) -> None:
    """The slider was 40 px tall on a phone, under the 44 px of the buttons beside it."""
    game, _, last = scripted.finished(site)
    page = open_page(site, width=375, height=667)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    position = page.get_by_label("Position")
    expect(position).to_have_attribute("max", str(last))
    for control in (position, page.get_by_role("button", name="Back", exact=True)):
        box = control.bounding_box()
        assert box is not None and box["height"] >= FINGER, box


def test_a_language_switch_keeps_the_replays_position(site: Site, open_page: OpenPage) -> None:
    """The page drawn anew in Portuguese went back to the first event."""
    page, game, tokens, last = _replay_of_a_finished_game(site, open_page)
    page.get_by_label("Position").fill(str(last - 1))
    _shows(page, site, game, tokens[1], last - 1)

    page.get_by_role("button", name="Português").click()

    expect(page.get_by_label("Posição")).to_have_value(str(last - 1))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(last - 1))


def test_the_replay_of_a_running_game_shows_the_viewers_hand_and_the_others_counts(
    site: Site, open_page: OpenPage
) -> None:
    """A game still played: the replay showed no card of the viewer's and no count of the
    others'. It shows the viewer's own hand, as the replay API gives it, and every other seat's
    count, never their cards."""
    game, tokens = scripted.started(site)
    for seat, action in scripted.MOVES[:3]:
        site.act(game, tokens[seat], action)
    page = open_page(site)
    sign_in(page, "bea")
    at = site.view(game, tokens[1])["version"]
    page.goto(f"/#/replay/{game}")
    expect(page.locator(".replay")).to_have_attribute("data-at", "1")
    page.get_by_label("Position").fill(str(at))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(at))
    replayed = site.replay(game, tokens[1], at)
    mine = page.locator(".replay-seats [data-seat='1'] [data-region=hand] [data-card]")
    expect(mine).to_have_count(len(replayed["you"]["hand"]))
    assert Counter(str(c.get_attribute("data-card")) for c in mine.all()) == Counter(
        replayed["you"]["hand"]
    )
    theirs = page.locator(".replay-seats [data-seat='0']")
    expect(theirs.locator("[data-card]")).to_have_count(0)
    expect(theirs.locator("[data-hand-count]")).to_have_attribute(
        "data-hand-count", str(replayed["seats"][0]["hand_count"])
    )


def test_an_unknown_game_s_replay_says_so_and_offers_no_controls(
    site: Site, open_page: OpenPage
) -> None:
    """A game id that is no game's (404) left the viewer's Back, Forward and position on the
    page, dead, under the refusal: it says so, with the way back to the lobby, and nothing else."""
    site.register("ana")
    page = open_page(site)
    sign_in(page, "ana")
    for lang, said in (("en", "No such game."), ("pt", "Este jogo não existe.")):
        page.goto("/#/replay/00000000-0000-4000-8000-000000000000")
        page.reload()
        expect(page.get_by_role("alert")).to_have_text(said)
        lobby = page.locator("main").get_by_role("link", name={"en": "Lobby", "pt": "Salão"}[lang])
        expect(lobby).to_have_attribute("href", "#/")
        expect(page.locator("main button, main input")).to_have_count(0)
        shoot(page, "replay-unknown", lang)
        if lang == "en":
            page.get_by_role("button", name="Português").click()
