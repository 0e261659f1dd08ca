"""An ASGI application over a WSGI one: Django's handler in a pool of threads, and responses over
async iterators (event streams) sent from the event loop, holding no thread. See ``asgi.py``."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpResponseBase

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# What a view may mark in ``request.META`` to know its async iterator will be streamed.
ASYNC_STREAMS = "uno.async_streams"


class Bridge:
    """An ASGI application that serves a WSGI application from a thread pool, and streams
    responses over async iterators from the event loop."""

    def __init__(self, wsgi: WSGIHandler, threads: int) -> None:
        self.wsgi = wsgi
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="uno-http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.pool.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _read_body(receive)
        if body is None:
            return  # the client left before sending its body
        environ = _environ(scope, body)
        loop = asyncio.get_running_loop()
        started: list[Any] = []
        answer = await loop.run_in_executor(self.pool, self._call, environ, started)
        status, headers = started
        await send(
            {
                "type": "http.response.start",
                "status": int(status.split(" ", 1)[0]),
                "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            }
        )
        if isinstance(answer, HttpResponseBase):
            await self._stream(answer, receive, send)
        else:
            await send({"type": "http.response.body", "body": b"".join(answer)})

    def _call(self, environ: dict[str, Any], started: list[Any]) -> Any:
        """In a pool thread: the whole answer, or the response itself when it streams an async
        iterator (sent from the loop)."""

        def start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> Any:
            started[:] = [status, headers]
            return None  # no write(): Django returns its body

        answer: Iterable[bytes] = self.wsgi(environ, start_response)
        if getattr(answer, "is_async", False):
            return answer
        try:
            return list(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()

    async def _stream(self, response: Any, receive: Receive, send: Send) -> None:
        """Send an async response until it ends or the client leaves, then close it (in a
        thread: closing fires ``request_finished``)."""
        sending = asyncio.ensure_future(self._send_all(response, send))
        leaving = asyncio.ensure_future(_disconnected(receive))
        try:
            await asyncio.wait({sending, leaving}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sending, leaving):
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sending
            await asyncio.get_running_loop().run_in_executor(self.pool, response.close)

    @staticmethod
    async def _send_all(response: Any, send: Send) -> None:
        async with contextlib.aclosing(response.streaming_content) as content:
            async for chunk in content:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})


async def _read_body(receive: Receive) -> bytes | None:
    """The request's body, read no further than one byte past the largest Django accepts (so a
    huge body costs no memory and Django still answers 413)."""
    from django.conf import settings

    most = (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31) + 1
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        part = message.get("body", b"")
        parts.append(part)
        size += len(part)
        if not message.get("more_body") or size >= most:
            return b"".join(parts)


def _declares_length(scope: Scope) -> bool:
    return any(name.lower() == b"content-length" for name, _ in scope.get("headers", []))


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ of an ASGI request (PEP 3333: the path as latin-1 text of its bytes)."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    root = scope.get("root_path", "")
    path = scope["path"]  # already unquoted
    if root and path.startswith(root):
        path = path[len(root) :]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root,
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        # The body was read whole: its real length, if the client declared one. A body sent
        # chunked has none here, as under a WSGI server, so ChunkedBodyMiddleware answers it 411
        # the same way whichever server runs the service (docs/api.md).
        "CONTENT_LENGTH": str(len(body)) if body and _declares_length(scope) else "",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        ASYNC_STREAMS: True,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_LENGTH":
            continue  # the body was read whole: its real length is above
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ
