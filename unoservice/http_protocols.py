"""uvicorn's HTTP protocols, refusing bytes that are not an HTTP request with the API's JSON error.

uvicorn answers a request it cannot parse (a broken request line, a header with a character HTTP
forbids, a bad chunk size, ...) itself, before any application sees it, with a ``text/plain``
body, "Invalid HTTP request received.": the one refusal of the service that was not JSON with a
``code``. These are uvicorn's own two protocols with that one answer (``send_400_response``)
written as 400 ``invalid`` (``unoservice.errors``: the code of a body that could not be parsed),
handed to uvicorn by its documented ``http`` setting, which takes a class: ``unoservice.serve``
(``make run``) and ``unoservice.asgi_worker`` (gunicorn's uvicorn workers: the Procfile,
docker/) pass ``JsonErrorsHTTP``, httptools' protocol where it is installed, h11's otherwise, as
uvicorn's ``auto`` picks. The connection is closed after it, as uvicorn does: the bytes that
follow cannot be trusted to start a request.
"""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

DETAIL = "The request is not well-formed HTTP/1.1 (its request line, a header or its framing)."
CONTENT_TYPE = b"application/json"


@functools.cache
def _body() -> bytes:
    # Imported at the first refusal, when the application (Django) is loaded: gunicorn's arbiter
    # imports the worker class, and this module with it, before it loads the application.
    from unoservice.errors import error_body

    return json.dumps(error_body("invalid", DETAIL), separators=(",", ":")).encode()


class JsonErrorsH11(H11Protocol):
    """h11's protocol (uvicorn's pure-Python one), its 400 as the API's JSON error."""

    def send_400_response(self, msg: str) -> None:
        body = _body()
        headers = [
            (b"content-type", CONTENT_TYPE),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


JsonErrorsHTTP: type[asyncio.Protocol]
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # no httptools (uvicorn[standard] has it): uvicorn's "auto" takes h11
    JsonErrorsHTTP = JsonErrorsH11
else:

    class JsonErrorsHttpTools(HttpToolsProtocol):
        """httptools' protocol (uvicorn's ``auto`` where it is installed), its 400 as the API's
        JSON error; the same headers as uvicorn's own answer (its ``server`` and ``date``)."""

        def send_400_response(self, msg: str) -> None:
            body = _body()
            content = [b"HTTP/1.1 400 Bad Request\r\n"]
            for name, value in self.server_state.default_headers:
                content += [name, b": ", value, b"\r\n"]
            content += [
                b"content-type: " + CONTENT_TYPE + b"\r\n",
                b"content-length: " + str(len(body)).encode() + b"\r\n",
                b"connection: close\r\n\r\n",
                body,
            ]
            self.transport.write(b"".join(content))
            self.transport.close()

    JsonErrorsHTTP = JsonErrorsHttpTools


# What every uvicorn of the service is given (``unoservice.serve``, ``asgi_worker.StreamsWorker``),
# said once. ``ws``: "none", since the service has no WebSocket endpoint. With uvicorn's default
# ("auto": the websockets package, installed with uvicorn[standard]) a request asking to upgrade
# (``Upgrade: websocket``) on any path was handed to Django's ASGI handler as a WebSocket, which
# it does not take: uvicorn answered 500 "Internal Server Error" in plain text, and logged an
# error. Without a WebSocket protocol uvicorn serves it as the plain request it also is.
UVICORN_SETTINGS: dict[str, Any] = {"http": JsonErrorsHTTP, "ws": "none"}
