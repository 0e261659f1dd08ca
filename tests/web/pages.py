"""What a person does in the web client, through the stable hooks of web/HOOKS.md only:
accessible names of buttons and labelled inputs, hash routes, ``data-card`` on every face-up
card, the table root's ``data-game-status`` and ``data-version``, refused moves in role="alert"."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.support.players import PASSWORD
from tests.web.site import Site

COLOURS = {"red": "Red", "yellow": "Yellow", "green": "Green", "blue": "Blue"}


def register(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/#/register")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Register").click()
    signed_in(page, username)


def sign_in(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/#/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    signed_in(page, username)


def signed_in(page: Page, username: str) -> None:
    """The header shows ``username`` signed in (not merely someone: a sign-out may be under way)."""
    header = page.get_by_role("banner")
    expect(header.get_by_role("link", name=username, exact=True)).to_be_visible()
    expect(header.get_by_role("button", name="Sign out")).to_be_visible()


def sign_out(page: Page) -> None:
    """The header's `Sign out`, and its end awaited (the logout answered, the header signed out):
    the page's own turn to the sign-in page comes before the test's next step, not into it."""
    header = page.get_by_role("banner")
    header.get_by_role("button", name="Sign out").click()
    expect(header.get_by_role("link", name="Sign in")).to_be_visible()


def open_lobby(page: Page) -> None:
    """The lobby as it is now (loaded afresh: it lists the games once, when it opens)."""
    page.goto("/#/")
    page.reload()
    expect(page.get_by_role("button", name="Create game")).to_be_visible()


def table(page: Page) -> Locator:
    return page.locator("[data-game-status]")


def open_table(page: Page, game: str) -> Locator:
    page.goto(f"/#/game/{game}")
    root = table(page)
    expect(root).not_to_have_attribute("data-game-status", "loading")
    return root


def at_version(page: Page, version: int) -> None:
    """Wait until the table shows the game as of ``version`` (the seq of its last event)."""
    expect(table(page)).to_have_attribute("data-version", str(version))


def shown_version(page: Page) -> int:
    return int(table(page).get_attribute("data-version") or 0)


def at_least(page: Page, version: int) -> None:
    """Wait until the table shows ``version`` or a later one."""
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-game-status]')?.dataset.version) >= v",
        arg=version,
    )


def next_decision(page: Page, site: Site, game: str, token: str) -> dict[str, Any]:
    """The seat's view once the others (bots, playing in the server meanwhile) have moved and
    the page shows it: the seat has a legal action, or the game is over. Each wait is for the
    page to show a newer event, never for time to pass."""
    while True:
        view = site.view(game, token)
        at_least(page, view["version"])
        if shown_version(page) != view["version"]:
            continue  # the page is ahead of what we read: read again
        if view["status"] != "active" or view["you"]["legal_actions"]:
            return view
        expect(table(page)).not_to_have_attribute("data-version", str(view["version"]))


def hand(page: Page) -> Locator:
    return page.locator("[data-region=hand]")


def hand_cards(page: Page) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in hand(page).locator("[data-card]").all()]


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def catch_button(page: Page) -> Locator:
    """The Catch buttons (one per seat that can be caught, named after it)."""
    return page.get_by_role("button", name=re.compile(r"^Catch\b"))


def play_card(page: Page, card: str, color: str | None = None) -> None:
    """Click ``card`` in the hand; for a wild, then the colour in the picker."""
    hand(page).locator(f'[data-card="{card}"]').first.click()
    if color is not None:
        button(page, COLOURS[color]).click()


def say_uno_with_next_play(page: Page) -> None:
    uno = button(page, "UNO!")
    uno.click()
    expect(uno).to_have_attribute("aria-pressed", "true")


def perform(page: Page, action: dict[str, Any]) -> None:
    """Do ``action`` (an entry of ``legal_actions``) by clicking what the page offers for it."""
    kind = action["action"]
    if kind == "play":
        assert "cards" not in action and "target" not in action, action  # no such rules here
        if action.get("uno"):
            say_uno_with_next_play(page)
        play_card(page, action["card"], action.get("color"))
    elif kind == "color":
        button(page, COLOURS[action["color"]]).click()
    elif kind == "catch":
        catch_button(page).first.click()
    else:
        names = {
            "draw": "Draw",
            "pass": "Pass",
            "uno": "UNO!",
            "challenge": "Challenge",
            "accept": "Accept",
        }
        button(page, names[kind]).click()


# --- nothing of another seat in the page -----------------------------------------------------


def cards_in_page(page: Page) -> list[str]:
    return [str(c.get_attribute("data-card")) for c in page.locator("[data-card]").all()]


def event_cards(event: dict[str, Any]) -> list[str]:
    """The cards an event of the log shows the seat it was served to (face up, or its own)."""
    data = event["data"]
    if event["type"] in ("starter_turned", "starter_returned"):
        return [data["card"]]
    cards = [*data.get("cards", []), *data.get("hand", [])]
    if event["type"] == "round_ended":
        cards = [card for shown in data["hands"] for card in shown]
    if event["type"] == "round_started":
        cards = list(data.get("hand", []))
    return cards


def pictured_cards(event: dict[str, Any]) -> list[str]:
    """The cards a feed line pictures: those played, drawn (the seat's own), discarded, given
    (to or by the seat) or turned as the first card; a round's revealed hands are not."""
    if event["type"] in ("starter_turned", "starter_returned"):
        return [event["data"]["card"]]
    if event["type"] in ("card_played", "cards_drawn", "color_discarded", "cards_given"):
        return list(event["data"].get("cards", []))
    return []


def cards_seen_by(site: Site, game: str, token: str) -> tuple[Counter[str] | None, set[str]]:
    """(the seat's own hand while the game is on, every card its event log has shown it so far:
    the cards face up for everyone, and its own draws, deals and gifts), as the API tells that
    seat."""
    view = site.view(game, token)
    playing = view["status"] == "active" and view.get("you")
    own = Counter(view["you"]["hand"]) if playing else None
    seen: set[str] = set()
    for event in site.events(game, token):
        seen.update(event_cards(event))
    return own, seen


def assert_no_foreign_cards(page: Page, site: Site, game: str, token: str) -> None:
    """While the game is on, the page shows the seat's own hand exactly; and no card but those
    and the cards turned face up for everyone: no card of another seat is in its DOM. Call it
    once the page shows the game's current version."""
    own, seen = cards_seen_by(site, game, token)
    if own is not None:
        assert Counter(hand_cards(page)) == own, (hand_cards(page), own)
    foreign = [c for c in cards_in_page(page) if c not in (own or ()) and c not in seen]
    assert not foreign, f"cards of other seats in the page: {foreign}"


# --- the move feed ------------------------------------------------------------------------------


def feed_lines(page: Page) -> list[dict[str, Any]]:
    """The feed's lines, newest first: seq, event type, the cards pictured, the words (a card
    read as its name), whether the line is hidden from screen readers, and what they are told
    of it (``said``: the words without what is ``aria-hidden``)."""
    return list(
        page.locator("[data-region=feed]").evaluate(
            """(list) => [...list.children].map((li) => {
                const words = li.cloneNode(true);  // a card read as its name, as screen readers do
                words.querySelectorAll('[data-card]')
                    .forEach((c) => c.replaceWith(c.getAttribute('aria-label')));
                const tidy = (node) => node.textContent.replace(/\\s+/g, ' ').trim();
                const text = tidy(words);
                const hidden = li.getAttribute('aria-hidden') === 'true';
                words.querySelectorAll('[aria-hidden=true]').forEach((n) => n.remove());
                return {
                    seq: Number(li.dataset.seq), type: li.dataset.type, text, hidden,
                    said: hidden ? '' : tidy(words),
                    cards: [...li.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
                };
            })"""
        )
    )


def named_in(event: dict[str, Any], names: dict[int, str], me: int | None) -> str | None:
    """The seat a feed line of ``event`` must name ("you" for the viewer's own), if any."""
    data = event["data"]
    seat = {
        "turn_changed": data.get("seat"),
        "round_started": data.get("dealer"),
        "round_ended": data.get("winner_seat"),
        "game_ended": data.get("winner_seat"),
    }.get(event["type"], event["seat"])
    if seat is None:
        return None
    return "you" if seat == me else names[seat]


# Events whose lines are shown but not read out (unless a turn's line names a seat skipped).
UNSAID = {"turn_changed", "bank_changed"}
SKIPPED = ("was skipped", "were skipped", "perdeu a vez")


def assert_feed_matches_log(page: Page, site: Site, game: str, token: str) -> None:
    """The feed has one line per event of the seat's own log, from its first line to the game's
    current version, newest first, each naming its seat and picturing exactly the cards its
    event shows that seat. Call it once the page shows the current version. Once the game is
    over the log reveals every card (the lines were drawn before: they picture no more than it).
    A screen reader is told one line a move: every line as it is shown, except the turns' and
    the banks' (hidden, or only the seat a skip passed over)."""
    view = site.view(game, token)
    log = {event["seq"]: event for event in site.events(game, token)}
    names = {seat["seat"]: seat["player"]["username"] for seat in view["seats"]}
    me = view["you"]["seat"] if view.get("you") else None
    feed = page.locator("[data-region=feed]")
    expect(feed.locator("li").first).to_have_attribute("data-seq", str(view["version"]))
    lines = feed_lines(page)
    seqs = [line["seq"] for line in lines]
    assert seqs == list(range(view["version"], seqs[-1] - 1, -1)), seqs
    for line in lines:
        event = log[line["seq"]]
        assert line["type"] == event["type"], (line, event)
        if view["status"] == "finished":
            assert set(line["cards"]) <= set(pictured_cards(event)), (line, event)
        else:
            assert line["cards"] == pictured_cards(event), (line, event)
        name = named_in(event, names, me)
        if name is not None:
            assert name.lower() in line["text"].lower(), (line, event)
        if event["type"] in UNSAID:
            assert line["hidden"] or line["said"].endswith(SKIPPED), (line, event)
        else:
            assert not line["hidden"] and line["said"] == line["text"], (line, event)
