"""Colour-blind mode: every card's colour also as a shape and a letter (on the table, in the feed,
on the colour chip), switched in the header, remembered, and on by default when the browser asks
for more contrast."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from tests.web.conftest import OpenPage
from tests.web.pages import hand, open_table, register
from tests.web.site import GAMES, WAIT, Site

MARKS = {"red": "▲R", "yellow": "●Y", "green": "■G", "blue": "◆B"}
MARKS_PT = {"red": "▲Vm", "yellow": "●Am", "green": "■Vd", "blue": "◆Az"}


def mark(element: Locator) -> str:
    """What the element shows after its content (the colour's shape and letter, or nothing)."""
    content = element.evaluate("(el) => getComputedStyle(el, '::after').content")
    return "" if content in ("none", "normal") else str(content).strip('"')


def toggle(page: Page) -> Locator:
    return page.get_by_role("button", name="Colour-blind mode", exact=True)


def coloured_hand_card(page: Page) -> tuple[Locator, str]:
    """A card of the hand that has a colour (not a wild), and its colour."""
    cards = hand(page).locator("[data-card]")
    expect(cards.first).to_be_visible()
    for card in cards.all():
        code = str(card.get_attribute("data-card"))
        if not code.startswith("wild"):
            return card, code.split("-")[0]
    raise AssertionError("a hand of wilds only")


SEED = 20261203  # a deal whose first card has a colour (the colour chip shows it)


def start_game(site: Site, page: Page, name: str) -> str:
    register(page, name)
    body = {"max_players": 2, "bots": ["basic"], "seed": SEED}
    game = site.api("POST", GAMES, site.make_staff(name), body, status=201)
    return str(game["id"])


def test_the_toggle_adds_shapes_and_letters_and_is_remembered(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)
    game = start_game(site, page, "cora")
    open_table(page, game)
    card, colour = coloured_hand_card(page)
    expect(toggle(page)).to_have_attribute("aria-pressed", "false")
    assert mark(card) == ""

    toggle(page).click()
    expect(toggle(page)).to_have_attribute("aria-pressed", "true")
    card, colour = coloured_hand_card(page)
    assert mark(card) == MARKS[colour]
    chip = page.locator("[data-region=discard] ~ .state [data-color]")
    assert mark(chip) == MARKS[str(chip.get_attribute("data-color"))]
    feed_card = page.locator("[data-region=feed] [data-card]").first
    expect(feed_card).to_be_attached()
    code = str(feed_card.get_attribute("data-card"))
    assert mark(feed_card) == ("" if code.startswith("wild") else MARKS[code.split("-")[0]])

    # In Portuguese the letters are the Portuguese colours' (Vermelho, Amarelo, Verde, Azul).
    page.get_by_role("button", name="Português").click()
    expect(page.get_by_role("button", name="Modo daltónico")).to_have_attribute(
        "aria-pressed", "true"
    )
    card, colour = coloured_hand_card(page)
    assert mark(card) == MARKS_PT[colour]
    page.get_by_role("button", name="English").click()

    page.reload()
    expect(toggle(page)).to_have_attribute("aria-pressed", "true")
    toggle(page).click()
    expect(toggle(page)).to_have_attribute("aria-pressed", "false")
    card, _ = coloured_hand_card(page)
    assert mark(card) == ""


def test_it_is_on_by_default_when_the_browser_asks_for_more_contrast(
    site: Site, browser: Browser, open_page: OpenPage
) -> None:
    page = open_page(site)
    game = start_game(site, page, "dina")
    context = browser.new_context(
        base_url=site.url, storage_state=page.context.storage_state(), contrast="more"
    )
    context.set_default_timeout(WAIT * 1000)
    try:
        contrasted = context.new_page()
        open_table(contrasted, game)
        expect(toggle(contrasted)).to_have_attribute("aria-pressed", "true")
        card, colour = coloured_hand_card(contrasted)
        assert mark(card) == MARKS[colour]
        # Switched off, it stays off, whatever the browser asks.
        toggle(contrasted).click()
        contrasted.reload()
        expect(toggle(contrasted)).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()
