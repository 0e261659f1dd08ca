"""Web Push in the browser: the service worker shows a pushed notification with its kind's title
and what its data tells (whom the game is with, by when the turn must be played, who won), as the
page words it (both read
``web/app/notes.js``), in the language picked on the page's switch (the worker cannot read the
page's localStorage), and leads to its game, or its tournament.

The notification is shown by the worker's own ``showPush`` (what its ``push`` listener runs on a
pushed message), called inside the real, activated service worker of the page, and read back
through its registration's ``getNotifications()``. (Chromium's DevTools push, which would go
through the listener too, lost a message in about one run in six here, so it is not used.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from playwright.sync_api import Page, Worker, expect

from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import WAIT, Site

# Shown by the worker, then its notifications as its registration lists them (title, words, tag,
# where a click leads), oldest first.
SHOW = """async (note) => {
  await showPush(note);
  const shown = await self.registration.getNotifications();
  return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url }));
}"""

# The page's service worker once it is activated (`ready` answers while it may still be
# activating), within `wait` ms: its state.
ACTIVATED = """async (wait) => {
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active;
  if (worker && worker.state !== 'activated') {
    await new Promise((done) => {
      worker.addEventListener('statechange', () => worker.state === 'activated' && done(null));
      setTimeout(done, wait);
    });
  }
  return registration.active?.state;
}"""


# The language the page keeps for the worker is Portuguese.
KEPT_PT = """async () => {
  const kept = await (await caches.open('uno-settings')).match('/settings/lang');
  return kept !== undefined && (await kept.text()) === 'pt';
}"""


def service_worker(page: Page) -> Worker:
    """The page's service worker (``/sw.js``), activated."""
    assert page.evaluate(ACTIVATED, WAIT * 1000) == "activated"
    workers = [w for w in page.context.service_workers if w.url.endswith("/sw.js")]
    assert workers, page.context.service_workers
    return workers[0]


def show(worker: Worker, note: dict[str, Any]) -> list[dict[str, str]]:
    return list(worker.evaluate(SHOW, note))


# A turn's deadline: noon UTC on a Monday, a Monday in every time zone from -11 to +11 hours.
DEADLINE = "2026-12-07T12:00:00+00:00"


def local_time(moment: str) -> str:
    """The hour and minute of ``moment`` in this machine's time zone (the browser's too)."""
    return f"{datetime.fromisoformat(moment).astimezone():%H:%M}"


def test_a_push_is_worded_as_the_page_words_it_in_the_language_picked_there(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)  # an English browser (en-GB)
    page.context.grant_permissions(["notifications"], origin=site.url)
    register(page, "pia")
    worker = service_worker(page)

    others = [{"id": 5, "username": "bea"}, {"id": 6, "username": "carl"}]
    turn = {"seat": 0, "version": 3, "deadline": None, "others": others}
    now = show(worker, {"kind": "your_turn", "game": "g-1", "data": turn})
    assert now == [
        {"title": "Your turn", "body": "with bea, carl", "tag": "game-g-1", "url": "/#/game/g-1"}
    ]
    # A correspondence game's turn says by when it must be played, in the page's locale.
    reminder = {**turn, "deadline": DEADLINE}
    now = show(worker, {"kind": "deadline_soon", "game": "g-4", "data": reminder})
    assert {
        "title": "Time is running out",
        "body": f"with bea, carl · play by Mon 7 Dec, {local_time(DEADLINE)}",
        "tag": "game-g-4",
        "url": "/#/game/g-4",
    } in now
    finished = {"seat": 1, "winner_seat": 0, "winner": {"id": 7, "username": "ana"}, "won": False}
    now = show(worker, {"kind": "game_finished", "game": "g-2", "data": finished})
    assert {
        "title": "Game finished",
        "body": "won by ana",
        "tag": "game-g-2",
        "url": "/#/game/g-2",
    } in now

    page.get_by_role("button", name="Português").click()
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    # The switch keeps the language for the worker in the `uno-settings` cache.
    page.wait_for_function(KEPT_PT, timeout=WAIT * 1000)
    now = show(worker, {"kind": "game_finished", "game": "g-3", "data": finished})
    assert {
        "title": "O jogo terminou",
        "body": "vitória de ana",
        "tag": "game-g-3",
        "url": "/#/game/g-3",
    } in now
    now = show(worker, {"kind": "your_turn", "game": "g-5", "data": reminder})
    assert {
        "title": "A sua vez",
        "body": f"com bea, carl · jogue até segunda, 7/12, {local_time(DEADLINE)}",
        "tag": "game-g-5",
        "url": "/#/game/g-5",
    } in now
    starting = {"tournament": "t-1", "name": "Friday Cup"}
    now = show(worker, {"kind": "tournament_starting", "game": None, "data": starting})
    assert {
        "title": "Um torneio começa",
        "body": "Friday Cup",
        "tag": "",
        "url": "/#/tournaments/t-1",
    } in now

    # A kind this worker does not know (a newer server's) still shows, under the service's name,
    # and leads to the inbox.
    now = show(worker, {"kind": "something_new"})
    assert {"title": "UNO", "body": "", "tag": "", "url": "/#/inbox"} in now
