"""The table as a player meets it on a phone (375 px, touch) and in Portuguese. Played through in
Chromium, its small buttons were under a finger's 44 px: the colour picker's `Cancel` (30 px, next
to `Blue`), `Resign` and its confirmation's `Cancel` (30 px), a seat's `Catch` (36 px, a race
against the other players); and the group of the turn's actions was named `Actions` in English
on a Portuguese page (what a screen reader says on reaching `Comprar`)."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import button, hand, open_table, sign_in
from tests.web.site import GAMES, Site

FINGER = 44  # px: the least a tap target's height and width


def assert_tappable(target: Locator, what: str) -> None:
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None, what
    assert box["height"] >= FINGER and box["width"] >= FINGER, (what, box)


def phone(open_page: OpenPage, site: Site) -> Page:
    return open_page(site, width=375, height=667)


def test_the_tables_small_buttons_take_a_finger_on_a_phone(site: Site, open_page: OpenPage) -> None:
    game, tokens = scripted.started(site)  # Ana (seat 0) moves first and holds a wild
    ana = phone(open_page, site)
    sign_in(ana, "ana")
    open_table(ana, game)

    hand(ana).locator('[data-card="wild"]').click()
    picker = ana.get_by_role("group", name="Choose a colour")
    assert_tappable(picker.get_by_role("button", name="Cancel", exact=True), "the picker's Cancel")
    picker.get_by_role("button", name="Cancel", exact=True).click()
    expect(picker).to_have_count(0)

    assert_tappable(button(ana, "Resign"), "Resign")
    button(ana, "Resign").click()
    assert_tappable(button(ana, "Cancel"), "Resign's Cancel")
    assert_tappable(button(ana, "Resign"), "Resign's confirmation")
    button(ana, "Cancel").click()

    # Ana plays down to one card without saying UNO: Bea, on her phone, may catch her.
    *before, (seat, uno_play), _, _ = scripted.MOVES
    for moving, action in before:
        site.act(game, tokens[moving], action)
    assert seat == 0 and uno_play["uno"] is True
    site.act(game, tokens[0], {**uno_play, "uno": False})
    bea = phone(open_page, site)
    sign_in(bea, "bea")
    open_table(bea, game)
    assert_tappable(bea.get_by_role("button", name="Catch ana", exact=True), "Catch")


def test_leaving_a_game_that_waits_for_players_takes_a_finger_on_a_phone(
    site: Site, open_page: OpenPage
) -> None:
    """`Leave`, under the invite link of a game waiting for players, was 30 px tall."""
    token = site.register("ana")
    game = site.api("POST", GAMES, token, {"max_players": 3, "private": True}, status=201)
    page = phone(open_page, site)
    sign_in(page, "ana")
    open_table(page, str(game["id"]))
    assert_tappable(button(page, "Leave"), "Leave")


def test_the_table_says_to_press_uno_before_the_next_to_last_card(
    site: Site, open_page: OpenPage
) -> None:
    """With two cards, `UNO!` (a toggle for the next play) came with no word of what it is for:
    a player who played first and looked for UNO after was caught by a bot a second later. The
    table says to press it first; pressed, that it goes with the card."""
    game, tokens = scripted.started(site)
    for seat, action in scripted.MOVES[:7]:  # Ana is left with green-3 and green-skip
        site.act(game, tokens[seat], action)
    page = phone(open_page, site)
    sign_in(page, "ana")
    open_table(page, game)
    expect(page.locator(".prompt")).to_have_text(
        "Down to one card? Press UNO! first, then the card."
    )
    button(page, "UNO!").click()
    expect(page.locator(".prompt")).to_have_text("UNO! is said with your next card")
    hand(page).locator('[data-card="green-3"]').click()
    expect(page.get_by_role("list", name="Players").locator('[data-seat="0"]')).to_contain_text(
        "UNO"
    )


def test_the_actions_group_is_named_in_portuguese(site: Site, open_page: OpenPage) -> None:
    game, _ = scripted.started(site)
    page = phone(open_page, site)
    sign_in(page, "ana")
    page.get_by_role("button", name="Português", exact=True).click()
    open_table(page, game)
    actions = page.get_by_role("group", name="Ações", exact=True)
    expect(actions.get_by_role("button", name="Comprar", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Actions", exact=True)).to_have_count(0)


# Every link and button of the header, with its height.
HEADER_TARGETS = """() => [...document.querySelectorAll('#header a, #header button')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.textContent.trim(), Math.round(el.getBoundingClientRect().height)])"""


def test_the_header_takes_a_finger_on_a_tablet(site: Site, browser: Browser) -> None:
    """A tablet (768 px, touch) has the phone's 44 px header targets, not a mouse's 30 px ones:
    `Sign out` beside `English` was a 30 px line there."""
    site.register("ana")
    tablet = browser.new_context(
        base_url=site.url,
        viewport={"width": 768, "height": 1024},
        has_touch=True,
        is_mobile=True,
        locale="en-GB",
    )
    try:
        page = tablet.new_page()
        sign_in(page, "ana")
        header = page.get_by_role("banner")
        for switch_to, back in (("Português", "English"), ("English", "Português")):
            small = [(name, px) for name, px in page.evaluate(HEADER_TARGETS) if px < FINGER]
            assert not small, small
            header.get_by_role("button", name=switch_to, exact=True).click()
            expect(header.get_by_role("button", name=back, exact=True)).to_be_visible()
    finally:
        tablet.close()
