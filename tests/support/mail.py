"""A real SMTP server on loopback (aiosmtpd) that keeps every mail it is sent: the account mails'
receiver (a confirmation of an address, a password reset) for the API's and the browser's tests.

The service sends through Django's SMTP backend (``EMAIL_HOST``/``EMAIL_PORT``), as in
production; ``Mailbox.wait_for`` awaits a mail to an address and ``link_in`` reads its link."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.support.streams import free_port

WAIT = 60.0  # seconds: a bound for a machine under load, not an expected duration


@dataclass
class Mail:
    sender: str
    to: list[str]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        body = self.message.get_body(preferencelist=("plain",))
        assert body is not None, "a mail without a text part"
        return str(body.get_content())

    def link_in(self, route: str) -> str:
        """The mail's one link to the web client's ``route`` (``email`` or ``reset``)."""
        links = re.findall(rf"https?://\S+/#/{route}/\S+", self.text)
        assert len(links) == 1, f"not one {route} link in: {self.text!r}"
        return str(links[0])

    def token_in(self, route: str) -> str:
        return self.link_in(route).rsplit("/", 1)[1]


@dataclass
class Mailbox:
    host: str
    port: int
    mails: list[Mail] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    refused: set[str] = field(default_factory=set)  # recipients answered 550 (no such mailbox)

    @property
    def settings(self) -> dict[str, Any]:
        """Django's settings that send to this mailbox."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": self.host,
            "EMAIL_PORT": self.port,
            "EMAIL_USE_TLS": False,
            "EMAIL_USE_SSL": False,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
        }

    @property
    def env(self) -> dict[str, str]:
        """A server process's environment that sends to this mailbox."""
        return {"EMAIL_HOST": self.host, "EMAIL_PORT": str(self.port)}

    def to(self, address: str) -> list[Mail]:
        with self.arrived:
            return [mail for mail in self.mails if address.lower() in map(str.lower, mail.to)]

    def wait_for(self, address: str, count: int = 1, timeout: float = WAIT) -> Mail:
        """The ``count``-th mail to ``address``, once it has arrived."""
        end = time.monotonic() + timeout
        with self.arrived:
            while len(self.to(address)) < count:
                left = end - time.monotonic()
                assert left > 0, f"no mail {count} to {address} within {timeout} s"
                self.arrived.wait(left)
            return self.to(address)[count - 1]

    def clear(self) -> None:
        with self.arrived:
            self.mails.clear()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.lower() in self.refused:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.arrived:
            self.mails.append(Mail(envelope.mail_from, list(envelope.rcpt_tos), message))
            self.arrived.notify_all()
        return "250 Message accepted for delivery"


@contextmanager
def running_mailbox(port: int | None = None) -> Iterator[Mailbox]:
    """An SMTP server on loopback (on ``port``, or a free one) for as long as the block runs."""
    box = Mailbox("127.0.0.1", port or free_port())
    # aiosmtpd gives its thread 5 s to start and answer a first connection, which "might
    # happen if the system is too busy" (its words): the suite's bound for a loaded machine.
    controller = Controller(box, hostname=box.host, port=box.port, ready_timeout=WAIT)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


def shapes_of(queries: list[dict[str, Any]]) -> list[str]:
    """Captured SQL (``CaptureQueriesContext``) with its values blanked (addresses, times, ids):
    what a request did, not with what, to compare two requests' work without timing them."""
    return [re.sub(r"'[^']*'|\b\d+\b", "?", query["sql"]) for query in queries]
