"""POSTs to addresses players give (webhooks, push services), without opening the server's
network to them.

A URL is refused unless every address its host resolves to is public (not loopback, private,
link-local, multicast, reserved or unspecified), unless ``UNO_WEBHOOKS_ALLOW_PRIVATE`` is on
(tests, local use). The check is made when the URL is registered and again at each delivery,
and the connection goes to the address that was checked (a second lookup could answer another:
DNS rebinding). Redirects are never followed (``http.client`` does not), and a delivery gets
``UNO_WEBHOOK_TIMEOUT`` seconds in all, from the connection to the end of the answer's headers: a
deadline, not a timeout per read (a receiver that sent its headers a line at a time kept a worker
for as long as it liked), kept by a timer that shuts the socket when it comes.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from unoservice.errors import DomainError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# The most of an answer's body read (it is not used: only the status counts).
_BODY_READ = 64 * 1024


class Refused(Exception):
    """The URL may not be posted to: ``reason`` says why."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the checked address the connection goes to


def is_public(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def target(url: str) -> Target:
    """Where ``url`` leads, checked; ``Refused`` when it may not be posted to."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused("The URL is malformed.") from None
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise Refused("The URL must be http:// or https:// with a host.")
    if parts.username is not None or parts.password is not None:
        raise Refused("The URL may not carry credentials.")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(f"The host {parts.hostname!r} does not resolve.") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not addresses:
        raise Refused(f"The host {parts.hostname!r} does not resolve.")
    if not settings.UNO_WEBHOOKS_ALLOW_PRIVATE and not all(map(is_public, addresses)):
        raise Refused(
            "The URL resolves to a loopback, private or link-local address, which is refused."
        )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, str(addresses[0]))


def check_url(url: str) -> None:
    """``url`` as a webhook or push endpoint: 400 ``url_refused`` when it may not be used."""
    try:
        target(url)
    except Refused as refused:
        raise DomainError("url_refused", str(refused)) from None


class _Pinned(http.client.HTTPConnection):
    """A connection to the address that was checked, whatever the host resolves to now."""

    def __init__(self, address: str, host: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, address: str, host: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str]) -> int | None:
    """POST ``body`` to ``url``; the answer's status, or None when there was none in time.

    ``Refused`` when the URL may not be posted to (any more)."""
    where = target(url)
    timeout = float(settings.UNO_WEBHOOK_TIMEOUT)
    kind = _PinnedTLS if where.scheme == "https" else _Pinned
    connection = kind(where.address, where.host, where.port, timeout)
    passed = threading.Event()
    deadline = threading.Timer(timeout, _cut, [connection, passed])
    deadline.daemon = True
    deadline.start()
    status: int | None = None
    try:
        connection.request("POST", where.path, body=body, headers=headers)
        response = connection.getresponse()
        # http.client takes the end of the stream for the end of the headers, so headers cut
        # at the deadline look whole: only the deadline's own mark says they were not in time.
        if not passed.is_set():
            status = response.status
        response.read(_BODY_READ)  # cut short at the deadline too: the status is known
    except (OSError, http.client.HTTPException):
        pass
    finally:
        deadline.cancel()
        connection.close()
    return status


def _cut(connection: http.client.HTTPConnection, passed: threading.Event) -> None:
    """The deadline: mark it passed, then end the connection's socket, so that a read waiting
    on it returns (marked first: the read may return before this thread runs again)."""
    passed.set()
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # closed already
            sock.shutdown(socket.SHUT_RDWR)
