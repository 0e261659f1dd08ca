"""Colour-blind mode: every card's colour also as a shape and a letter (on the table, in the feed,
on the colour chip, in the colour picker and the replay), switched in the header, remembered, and
on by default when the browser asks for more contrast. The marks are seen, never read: no name
or text in Chromium's accessibility tree carries one, and the picker's buttons keep their names."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Locator, Page, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import COLOURS, button, feed_lines, hand, open_table, register, sign_in, table
from tests.web.site import GAMES, WAIT, Site

MARKS = {"red": "▲R", "yellow": "●Y", "green": "■G", "blue": "◆B"}
MARKS_PT = {"red": "▲Vm", "yellow": "●Am", "green": "■Vd", "blue": "◆Az"}


def mark(element: Locator) -> str:
    """What the element shows after its content (the colour's shape and letter, or nothing):
    the first string of its ``::after`` content (``"▲R" / ""``: the rest is its alternative
    text, none)."""
    content = str(element.evaluate("(el) => getComputedStyle(el, '::after').content"))
    shown = re.match(r'"([^"]*)"', content)
    return shown.group(1) if shown else ""


def shows_mark(page: Page, card: str, wanted: str) -> None:
    """Await the hand's ``card`` showing ``wanted`` after its content (a language switch or the
    toggle draws the page again: a mark sampled meanwhile may be the old page's)."""
    page.wait_for_function(
        """([card, wanted]) => {
          const el = document.querySelector(`[data-region=hand] [data-card='${card}']`);
          const content = el ? getComputedStyle(el, '::after').content : '';
          return (/^"([^"]*)"/.exec(content)?.[1] ?? '') === wanted;
        }""",
        arg=[card, wanted],
    )


def toggle(page: Page) -> Locator:
    return page.get_by_role("button", name="Colour-blind mode", exact=True)


def coloured_hand_card(page: Page) -> tuple[Locator, str]:
    """A card of the hand that has a colour (not a wild), and its colour."""
    # Awaited, not sampled: after a language switch the page draws the hand again, and a list
    # of its cards taken meanwhile could be empty.
    coloured = hand(page).locator("[data-card]:not([data-card^='wild'])").first
    expect(coloured).to_be_visible()
    code = str(coloured.get_attribute("data-card"))
    return hand(page).locator(f"[data-card='{code}']").first, code.split("-")[0]


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
    shows_mark(page, str(card.get_attribute("data-card")), MARKS[colour])
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
    shows_mark(page, str(card.get_attribute("data-card")), MARKS_PT[colour])
    page.get_by_role("button", name="English").click()

    page.reload()
    expect(toggle(page)).to_have_attribute("aria-pressed", "true")
    toggle(page).click()
    expect(toggle(page)).to_have_attribute("aria-pressed", "false")
    card, _ = coloured_hand_card(page)
    shows_mark(page, str(card.get_attribute("data-card")), "")


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


# --- what screen readers are told: the marks stay out of every name -----------------------------

SHAPES = "▲●■◆"
NAMES_PT = {"red": "Vermelho", "yellow": "Amarelo", "green": "Verde", "blue": "Azul"}


def leaked(page: Page) -> list[str]:
    """Names and text in Chromium's own accessibility tree that carry a colour's shape: what a
    screen reader would read of the marks (none: they have no alternative text)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    names = [str(node.get("name", {}).get("value", "")) for node in nodes]
    return [name for name in names if any(shape in name for shape in SHAPES)]


def colour_blind(page: Page) -> None:
    """Colour-blind mode on, as the header's toggle leaves it (remembered)."""
    page.evaluate("() => localStorage.setItem('uno.colorblind', '1')")
    page.reload()
    expect(toggle(page)).to_have_attribute("aria-pressed", "true")


def test_the_colour_picker_keeps_its_names_in_colour_blind_mode(
    site: Site, open_page: OpenPage
) -> None:
    """The scripted game's first move: Ana's wild, whose colour she names in the picker."""
    game, _ = scripted.started(site)
    page = open_page(site)
    sign_in(page, "ana")
    open_table(page, game)
    colour_blind(page)
    expect(table(page)).to_have_attribute("data-game-status", "active")

    # The hand's cards are named by their colour and figure only.
    expect(page.get_by_role("img", name="Blue skip", exact=True)).to_be_visible()
    hand(page).locator('[data-card="wild"]').click()
    for colour, name in COLOURS.items():
        swatch = button(page, name)
        expect(swatch).to_be_visible()
        expect(swatch).to_have_attribute("aria-label", name)
        assert mark(swatch) == MARKS[colour]
    assert leaked(page) == []

    page.get_by_role("button", name="Português").click()
    hand(page).locator('[data-card="wild"]').click()
    for colour, name in NAMES_PT.items():
        swatch = button(page, name)
        expect(swatch).to_be_visible()
        assert mark(swatch) == MARKS_PT[colour]
    assert leaked(page) == []
    page.get_by_role("button", name="English").click()

    hand(page).locator('[data-card="wild"]').click()
    button(page, "Blue").click()
    expect(table(page)).not_to_have_attribute("data-version", "4")
    # The colour chip and the feed's "named Blue" show the mark, and are read without it.
    chip = page.locator("[data-region=discard] ~ .state [data-color]")
    expect(chip).to_have_attribute("data-color", "blue")
    assert mark(chip) == MARKS["blue"]
    word = page.locator("[data-region=feed] .color-word").first
    expect(word).to_have_text("Blue")
    assert mark(word) == MARKS["blue"]
    assert leaked(page) == []


def test_the_replay_in_colour_blind_mode(site: Site, open_page: OpenPage) -> None:
    game, _, last = scripted.finished(site)
    page = open_page(site)
    sign_in(page, "bea")
    page.goto(f"/#/replay/{game}")
    colour_blind(page)
    position = page.get_by_label("Position")
    expect(position).to_have_attribute("max", str(last))
    position.fill(str(last - 3))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(last - 3))
    # Every hand is shown: each coloured card carries its mark, and is named as without it.
    cards = page.locator("[data-region=seats] [data-card]")
    expect(cards.first).to_be_visible()
    for card in cards.all():
        code = str(card.get_attribute("data-card"))
        if code.startswith("wild"):
            continue
        colour = code.split("-", 1)[0]
        assert mark(card) == MARKS[colour], code
        assert str(card.get_attribute("aria-label")).startswith(COLOURS[colour]), code
    expect(page.get_by_role("img", name="Red 9", exact=True).first).to_be_visible()
    chip = page.locator(".replay [data-color]")
    assert mark(chip) == MARKS[str(chip.get_attribute("data-color"))]
    # The feed's lines read as they did without the marks.
    said = [line["said"] for line in feed_lines(page)]
    assert "ana played Green draw 2" in said, said
    assert not [line for line in said if any(shape in line for shape in SHAPES)], said
    assert leaked(page) == []
