"""What a screen reader is told at the table: the feed (a polite live region) one line a move, the
table's own live region only that the turn came to you. The lines of what happened before the
page opened come in while the feed is quiet (``aria-live="off"``); it is polite once they are
in, and every line added after that is a move's (the turns' lines are hidden from screen
readers, unless they name a seat a skip passed over)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.web import scripted
from tests.web.conftest import OpenPage
from tests.web.pages import at_version, feed_lines, open_table, play_card, sign_in, table
from tests.web.site import Site

# Every line added to the feed, with the feed's aria-live when it came: the value of the
# attribute as the DOM changes were made (a record of an attribute change gives its old value).
RECORD = """
window.__feed = [];
new MutationObserver((records) => {
  const isFeed = (el) => el instanceof Element && el.matches('[data-region=feed]');
  records.forEach((r, i) => {
    if (r.type !== 'childList' || !isFeed(r.target)) return;
    const next = records.slice(i + 1).find((x) => x.type === 'attributes' && isFeed(x.target));
    const live = next ? next.oldValue : r.target.getAttribute('aria-live');
    for (const li of r.addedNodes) {
      if (li instanceof Element) window.__feed.push({ seq: Number(li.dataset.seq), live });
    }
  });
}).observe(document, {
  subtree: true, childList: true, attributes: true,
  attributeFilter: ['aria-live'], attributeOldValue: true,
});
"""
OPEN_AFTER = 5  # the script's moves made before Ana opens the table (through Blue reverse)


def added(page: Page) -> dict[int, str]:
    """Each seq's line, and the feed's aria-live when it was added."""
    return {e["seq"]: e["live"] for e in page.evaluate("() => window.__feed")}


def announced(page: Page) -> dict[int, dict[str, Any]]:
    """The feed's lines added while it was polite, by seq (what a screen reader is told)."""
    live = added(page)
    return {line["seq"]: line for line in feed_lines(page) if live.get(line["seq"]) == "polite"}


def test_the_feed_tells_each_move_once_and_not_the_lines_before_the_page_opened(
    site: Site, open_page: OpenPage
) -> None:
    game, tokens = scripted.started(site)
    for seat, action in scripted.MOVES[:OPEN_AFTER]:
        version = site.act(game, tokens[seat], action)["version"]

    page = open_page(site)
    sign_in(page, "ana")
    page.add_init_script(RECORD)
    page.reload()
    open_table(page, game)
    at_version(page, version)
    feed = page.locator("[data-region=feed]")
    expect(feed).to_have_attribute("aria-live", "polite")
    expect(feed).to_have_attribute("aria-relevant", "additions")
    # The backlog came in while the feed was quiet: none of it is read out.
    backlog = added(page)
    assert sorted(backlog) == list(range(1, version + 1)), backlog
    assert set(backlog.values()) == {"off"}, backlog

    # The table has two live regions besides alerts and the chat's: the feed, and its own for
    # your turn.
    regions = page.locator(".table [aria-live]:not([aria-live=off]):not([data-region=chat] *)")
    expect(regions).to_have_count(2)
    assert {r.get_attribute("data-region") for r in regions.all()} == {"feed", "announce"}
    announce = page.locator("[data-region=announce]")
    expect(announce).to_have_text("Your turn: Blue reverse")  # on opening, Ana's turn

    # The rest of the script, Ana's moves and Bea's, while Ana watches.
    for seat, action in scripted.MOVES[OPEN_AFTER:]:
        version = site.act(game, tokens[seat], action)["version"]
        at_version(page, version)
    expect(feed.locator("li").first).to_have_attribute("data-seq", str(version))
    told = announced(page)
    assert sorted(told) == list(range(max(backlog) + 1, version + 1)), told
    said = [told[seq]["said"] for seq in sorted(told) if told[seq]["said"]]
    # One line a move: the turns' lines are not read out, the draws name who lost a turn.
    assert said == [
        "You played Blue draw 2",
        "bea drew 2 and was skipped",
        "You played Green draw 2",
        "bea drew 2 and was skipped",
        "You played Green 3 UNO!",
        "bea played Green 9",
        "You played Green skip",
        "Round 1 over: you went out, +56",
        "Game over: you won",
    ], said
    hidden = [told[seq] for seq in sorted(told) if not told[seq]["said"]]
    assert hidden and {line["type"] for line in hidden} == {"turn_changed"}, hidden
    assert all(line["hidden"] for line in hidden), hidden
    # "Your turn" is told by the table's region only (the feed's turn lines are hidden): the
    # last time the turn came to Ana, after Bea's Green 9.
    expect(announce).to_have_text("Your turn: Green 9")


def test_a_skip_is_told_by_name(site: Site, open_page: OpenPage) -> None:
    """Bea watches Ana's skip and reverse (a skip with two players): the turn's line tells her
    she was skipped, and only that part of it is read out."""
    game, tokens = scripted.started(site)
    for seat, action in scripted.MOVES[:3]:
        version = site.act(game, tokens[seat], action)["version"]
    page = open_page(site)
    sign_in(page, "bea")
    page.add_init_script(RECORD)
    page.reload()
    open_table(page, game)
    at_version(page, version)
    feed = page.locator("[data-region=feed]")
    expect(feed).to_have_attribute("aria-live", "polite")
    for seat, action in scripted.MOVES[3:5]:
        version = site.act(game, tokens[seat], action)["version"]
        at_version(page, version)
    # The table may show a version before the feed has its lines: a read of the view (after a
    # reconnection, or the tab shown again) can bring the board there ahead of the stream's
    # frames, which bring the lines. Awaited, as in the test above, before the feed is read.
    expect(feed.locator("li").first).to_have_attribute("data-seq", str(version))
    told = announced(page)
    said = [told[seq]["said"] for seq in sorted(told) if told[seq]["said"]]
    assert said == [
        "ana played Blue skip",
        "You were skipped",
        "ana played Blue reverse",
        "You were skipped",
    ], said
    skips = [told[seq] for seq in sorted(told) if told[seq]["said"] == "You were skipped"]
    assert [line["text"] for line in skips] == ["You were skipped · ana to play"] * 2
    assert not any(line["hidden"] for line in skips)


def test_the_last_move_of_a_game_is_in_the_feed_though_its_stream_never_brought_it(
    site: Site, open_page: OpenPage
) -> None:
    """Ana's last card ends the game: its answer shows the finished board, the stream stops, and
    the lines no frame brought are read from the log at once. They came only with the next
    drawing of the board, which the fair-deck check (its module refused here) happened to make."""
    game, tokens = scripted.started(site)
    *before, (seat, last) = scripted.MOVES
    for moving, action in before:
        version = site.act(game, tokens[moving], action)["version"]
    assert seat == 0 and last["action"] == "play" and "color" not in last

    # No frame comes (the stream is never answered), and the fair-deck check fails to load.
    held: list[Route] = []
    refused: list[str] = []

    def hold(route: Route) -> None:
        held.append(route)

    def refuse(route: Route) -> None:
        refused.append(route.request.url)
        route.abort()

    page = open_page(site, service_workers="block")
    page.route("**/stream/**", hold)
    page.route("**/app/table/end.js", refuse)
    sign_in(page, "ana")
    open_table(page, game)
    at_version(page, version)
    play_card(page, last["card"])
    expect(table(page)).to_have_attribute("data-game-status", "finished")
    final = site.view(game, tokens[0])
    assert final["status"] == "finished", final
    expect(page.locator("[data-region=feed] li").first).to_have_attribute(
        "data-seq", str(final["version"])
    )
    assert refused, "the finished board asks for the fair-deck check"
