"""The web client in a real browser: Debian's Chromium, driven by Playwright, against the real
ASGI server (the Procfile's web process, as tests/streams runs it) over the test database.

Every test commits (``transactional_db``): the server is another process and sees only what
committed; the tables are emptied after each test, so each one's lobby shows its own games only.
Pages are awaited through Playwright's auto-waiting assertions, never with sleeps."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

# Playwright's browsers are never downloaded: the tests drive the machine's Chromium.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
# Playwright's sync API keeps an asyncio loop on the test's thread; Django would take the ORM
# calls made meanwhile (a staff user, pytest-django's flush after each test) for calls from
# async code. Nothing here runs concurrently on that thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from django.db import connection
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    Request,
    expect,
    sync_playwright,
)

from streams.hub import LISTENER_NAME
from tests.support.mail import Mailbox, running_mailbox
from tests.support.streams import Server, database_url, free_port, start_server, stop_server
from tests.web import scripted
from tests.web.site import CHROMIUM, CHROMIUM_ARGS, WAIT, Site

# The server's keep-alives every 15 s, as in production: no awaited update depends on them.
KEEPALIVE = 15.0


def _server(django_db_blocker: Any, tmp: Path, mail: Mailbox, port: int | None = None) -> Server:
    return start_server(
        database_url(django_db_blocker),
        port or free_port(),
        tmp / "server.log",
        KEEPALIVE,
        # Bots play at once, in the request that made them due (no broker: tasks in-process).
        # Every test's people register (or play as guests) from the one address of the session's
        # server, and sign in (or refresh) there again and again: its registration and token
        # throttles (tested in tests/ops/test_security.py) are lifted here, and so is the account
        # mails' (a password's reset is throttled per client address). Webhooks may go to a
        # receiver on loopback (test_webhooks), which production refuses. The account mails go
        # to the session's SMTP server on loopback (``mailbox``), their links to this server.
        env={
            "UNO_BOT_DELAY": "0",
            "UNO_THROTTLE_REGISTRATION": "off",
            "UNO_THROTTLE_TOKEN": "off",
            "UNO_THROTTLE_MAILS": "off",
            # per username (sign-ins failed on purpose) and per player: tested in tests/players
            # and tests/authz, lifted here like the others
            "UNO_THROTTLE_SIGNIN_FAILURES": "off",
            "UNO_THROTTLE_REPORTS": "off",
            "UNO_WEBHOOKS_ALLOW_PRIVATE": "1",
            **mail.env,
        },
    )


@pytest.fixture(scope="session")
def session_mailbox() -> Iterator[Mailbox]:
    """The SMTP server every web server of the session sends its account mails to."""
    with running_mailbox() as box:
        yield box


@pytest.fixture
def mailbox(session_mailbox: Mailbox) -> Iterator[Mailbox]:
    """The session's SMTP server, holding only the mails sent during the test."""
    session_mailbox.clear()
    yield session_mailbox
    session_mailbox.clear()


@pytest.fixture(scope="session")
def web_server(
    django_db_setup: Any,
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
    session_mailbox: Mailbox,
) -> Iterator[Server]:
    running = _server(django_db_blocker, tmp_path_factory.mktemp("web"), session_mailbox)
    try:
        yield running
    finally:
        stop_server(running)


@pytest.fixture
def site(web_server: Server, transactional_db: None) -> Iterator[Site]:
    """The session's server, on an empty database. Afterwards, the scripted game's moves are
    checked unchanged: a test that changed them made every later one play another game."""
    yield Site(web_server)
    assert repr(scripted.MOVES) == scripted.AS_WRITTEN, "a test changed scripted.MOVES"


@pytest.fixture
def own_site(
    django_db_setup: Any,
    django_db_blocker: Any,
    transactional_db: None,
    tmp_path: Path,
    session_mailbox: Mailbox,
) -> Iterator[Site]:
    """A server of the test's own, which the test may crash and start again on its port."""
    holder = Site(_server(django_db_blocker, tmp_path, session_mailbox))

    def restart(port: int) -> Server:
        return _server(django_db_blocker, tmp_path, session_mailbox, port)

    holder.restarter = restart
    try:
        yield holder
    finally:
        stop_server(holder.server)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not os.access(CHROMIUM, os.X_OK):
        missing = f"no Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(missing)  # CI installs it: a skip there would hide the whole suite
        pytest.skip(missing)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    expect.set_options(timeout=WAIT * 1000)
    try:
        yield launched
    finally:
        launched.close()


OpenPage = Callable[..., Page]


# A web worker's statements, in flight when a test ends, against the flush that empties the
# tables after it: a TRUNCATE of every table waits for each lock in turn, and a request that
# still reads two tables (an inbox's join) can hold one and wait for another the TRUNCATE holds
# already, a deadlock that failed the flush (seen once in CI).
IN_FLIGHT = f"""
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()
      AND backend_type = 'client backend' AND application_name <> '{LISTENER_NAME}'
      AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
"""


def wait_for_the_server_to_settle() -> None:
    """Until no statement of the server runs on the test database (at most ``WAIT`` seconds:
    a page's request ends within it)."""
    deadline = time.monotonic() + WAIT
    with connection.cursor() as cursor:
        while True:
            cursor.execute(IN_FLIGHT)
            row = cursor.fetchone()
            if row is None or row[0] == 0 or time.monotonic() > deadline:
                return
            time.sleep(0.02)


@pytest.fixture
def open_page(browser: Browser, transactional_db: None) -> Iterator[OpenPage]:
    """``open_page(site, width=1280)``: a page in a browser context of its own (its own
    storage: one person); the test fails if a page threw an uncaught error. With
    ``service_workers="block"`` every request reaches ``page.route`` (none is answered from the
    service worker's cache). Its pages are
    closed, and the server's last requests done, before the tables are emptied (it asks for
    ``transactional_db``, whose flush so comes after it)."""
    contexts = []
    errors: list[str] = []
    answering: set[Request] = set()  # the pages' calls the server has not answered yet

    def open_one(
        site: Site,
        width: int = 1280,
        height: int = 900,
        service_workers: Literal["allow", "block"] = "allow",
    ) -> Page:
        context = browser.new_context(
            base_url=site.url,
            viewport={"width": width, "height": height},
            locale="en-GB",
            service_workers=service_workers,
        )
        context.set_default_timeout(WAIT * 1000)
        context.on("request", lambda request: _sent(answering, request))
        context.on("requestfinished", lambda request: answering.discard(request))
        context.on("requestfailed", lambda request: answering.discard(request))
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        return page

    yield open_one
    _answered(contexts, answering)
    for context in contexts:
        context.close()
    wait_for_the_server_to_settle()
    assert not errors, errors


def _sent(answering: set[Request], request: Request) -> None:
    """Note a call the end of a test waits for: not a stream, not a long poll (they last)."""
    if request.resource_type != "eventsource" and "wait=" not in request.url:
        answering.add(request)


def _answered(contexts: list[BrowserContext], answering: set[Request]) -> None:
    """Until the server has answered every call the pages made (at most ``WAIT`` seconds): the
    last ones of a page drawn again (a profile's lists, after a language switch) may not have
    reached the database yet when the test ends, which the settling below cannot see."""
    pages = [page for context in contexts for page in context.pages]
    deadline = time.monotonic() + WAIT
    while answering and pages and time.monotonic() < deadline:
        pages[0].wait_for_timeout(20)  # Playwright takes its events meanwhile
