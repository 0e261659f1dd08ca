"""The server the browser talks to, and what the tests ask of it over HTTP: tokens, views, event
logs, staff users (decks and seeds are staff-only), and a crash followed by a fresh start."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from bench.harness import children_of
from tests.support.mail import Mailbox
from tests.support.players import PASSWORD
from tests.support.streams import HOST, Server

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium as root in a container: no sandbox, no GPU, and none of its calls home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Seconds: the most any awaited page state may take on a loaded 2-core machine (a bound on
# Playwright's auto-waiting, never a sleep), and any answer of the API (a password's hash on a
# fresh, loaded server takes seconds).
WAIT = 30.0
API_WAIT = 60.0

GAMES = "/api/v1/games/"


@dataclass
class Site:
    server: Server
    restarter: Callable[[int], Server] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server.port}"

    def api(
        self, method: str, path: str, token: str | None = None, body: Any = None, status: int = 200
    ) -> Any:
        answered, data = self.server.request(method, path, token, body, timeout=API_WAIT)
        assert answered == status, (method, path, answered, data)
        return data

    def token(self, username: str, password: str = PASSWORD) -> str:
        body = {"username": username, "password": password}
        return str(self.api("POST", "/api/v1/auth/token/", body=body)["token"])

    def register(self, username: str, password: str = PASSWORD) -> str:
        """A player registered over the API (not through the page); their token."""
        body = {"username": username, "password": password}
        self.api("POST", "/api/v1/players/", body=body, status=201)
        return self.token(username, password)

    def give_address(self, token: str, address: str, mailbox: Mailbox) -> None:
        """The player of ``token`` (whose password is ``PASSWORD``) with ``address`` confirmed,
        through the link mailed to it (its token sent over the API, not opened in a page); the
        mailbox is left empty."""
        body = {"email": address, "password": PASSWORD}
        self.api("POST", "/api/v1/players/me/email/", token, body, status=202)
        confirm = {"token": mailbox.wait_for(address).token_in("email")}
        self.api("POST", "/api/v1/auth/email/confirm/", body=confirm)
        mailbox.clear()

    def make_staff(self, username: str) -> str:
        """Make a registered player staff (who may give a deck or a seed); their token."""
        assert User.objects.filter(username=username).update(is_staff=True) == 1
        return self.token(username)

    def view(self, game: str, token: str) -> dict[str, Any]:
        return dict(self.api("GET", f"{GAMES}{game}/", token))

    def events(self, game: str, token: str) -> list[dict[str, Any]]:
        body = self.api("GET", f"{GAMES}{game}/events/?after=0&limit=1000", token)
        return list(body["events"])

    def replay(self, game: str, token: str, at: int) -> dict[str, Any]:
        return dict(self.api("GET", f"{GAMES}{game}/replay/?at={at}", token))

    def act(self, game: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
        return dict(self.api("POST", f"{GAMES}{game}/actions/", token, action))

    def crash(self) -> None:
        """Kill the server, workers first, as a crash would: every open connection drops at
        once, with no graceful close."""
        assert self.restarter is not None, "only a test's own server (own_site) crashes"
        master = self.server.process
        for pid in children_of(master.pid):
            os.kill(pid, signal.SIGKILL)
        master.kill()
        master.wait(timeout=30)

    def start_again(self) -> None:
        """A new server on the crashed one's port."""
        assert self.restarter is not None and self.server.process.poll() is not None
        self.server = self.restarter(self.server.port)
