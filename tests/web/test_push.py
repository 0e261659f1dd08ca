"""Web Push in the browser: the service worker shows a pushed notification with its kind's title
and what its data tells (``web/app/notes.js``, read by the page and the worker alike), in the
language picked on the page's switch (the worker cannot read the page's localStorage), and
leads to its game, or its tournament.

The push is delivered by Chromium's own DevTools protocol (``ServiceWorker.deliverPushMessage``,
what DevTools' "Push" button sends), so the worker's real ``push`` handler runs; what it showed is
read back through ``registration.getNotifications()``."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import CDPSession, Page, expect

from tests.web.conftest import OpenPage
from tests.web.pages import register
from tests.web.site import WAIT, Site

# The worker's notifications, as the page's registration lists them (title, words, tag, where a
# click leads), once at least `count` are shown.
SHOWN = """async ([count, wait]) => {
  const registration = await navigator.serviceWorker.ready;
  const until = Date.now() + wait;
  let shown = await registration.getNotifications();
  while (shown.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    shown = await registration.getNotifications();
  }
  return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url }));
}"""


def shown(page: Page, count: int) -> list[dict[str, str]]:
    """The worker's notifications, once ``count`` are shown (or the wait is over)."""
    return list(page.evaluate(SHOWN, [count, WAIT * 1000]))


def worker_registration(page: Page, site: Site) -> tuple[CDPSession, str]:
    """The page's service worker, ready, and its registration's id for the DevTools protocol."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    cdp = page.context.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")  # the registrations follow as events
    scope = f"{site.url}/"
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        ids = [r["registrationId"] for r in found if r["scopeURL"] == scope and not r["isDeleted"]]
        if ids:
            return cdp, ids[0]
        cdp.send("Runtime.evaluate", {"expression": "0"})  # a round trip: the events before it
    raise AssertionError(f"no service worker registered for {scope}: {found}")


def push(cdp: CDPSession, site: Site, registration: str, note: dict[str, Any]) -> None:
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": site.url, "registrationId": registration, "data": json.dumps(note)},
    )


def test_a_push_is_titled_in_the_language_picked_on_the_page(
    site: Site, open_page: OpenPage
) -> None:
    page = open_page(site)  # an English browser (en-GB)
    page.context.grant_permissions(["notifications"], origin=site.url)
    register(page, "pia")
    cdp, registration = worker_registration(page, site)

    push(cdp, site, registration, {"kind": "your_turn", "game": "g-1", "data": {"seat": 0}})
    now = shown(page, 1)
    assert now == [{"title": "Your turn", "body": "", "tag": "game-g-1", "url": "/#/game/g-1"}]
    finished = {"seat": 1, "winner_seat": 0, "winner": {"id": 7, "username": "ana"}, "won": False}
    push(cdp, site, registration, {"kind": "game_finished", "game": "g-2", "data": finished})
    now = shown(page, 2)
    assert {
        "title": "Game finished",
        "body": "won by ana",
        "tag": "game-g-2",
        "url": "/#/game/g-2",
    } in now

    page.get_by_role("button", name="Português").click()
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    push(cdp, site, registration, {"kind": "game_finished", "game": "g-3", "data": finished})
    now = shown(page, 3)
    assert {
        "title": "O jogo terminou",
        "body": "vitória de ana",
        "tag": "game-g-3",
        "url": "/#/game/g-3",
    } in now
    starting = {"tournament": "t-1", "name": "Friday Cup"}
    push(cdp, site, registration, {"kind": "tournament_starting", "game": None, "data": starting})
    now = shown(page, 4)
    assert {
        "title": "Um torneio começa",
        "body": "Friday Cup",
        "tag": "",
        "url": "/#/tournaments/t-1",
    } in now

    # A kind this worker does not know (a newer server's) still shows, under the service's name,
    # and leads to the inbox.
    push(cdp, site, registration, {"kind": "something_new"})
    now = shown(page, 5)
    assert {"title": "UNO", "body": "", "tag": "", "url": "/#/inbox"} in now
