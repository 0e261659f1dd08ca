"""The web process's gunicorn worker: uvicorn's, ending this process's event streams as it stops.

An event stream never finishes by itself, so uvicorn's graceful shutdown (a deploy's SIGTERM, a
recycled worker) would wait for it until gunicorn kills the worker: the streams' clients would
see nothing for that long, and then reconnect all at once. This worker ends every stream of the
process first (``streams.hub.close_all``: each sends what it holds, a ``retry`` hint spread over
a few hundred milliseconds, and ends), then lets uvicorn wait for the ordinary requests in flight.
Browsers reconnect with ``Last-Event-ID`` to another worker and miss nothing. Bytes that are not
an HTTP request get the API's JSON error (``unoservice.http_protocols``), not uvicorn's text.
"""

from __future__ import annotations

import socket
import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

from unoservice.http_protocols import UVICORN_SETTINGS


class StreamsServer(Server):
    """uvicorn's server, closing the event streams before its graceful shutdown."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        from streams import hub

        hub.close_all()
        await super().shutdown(sockets)


class StreamsWorker(UvicornWorker):
    """``uvicorn_worker.UvicornWorker`` serving through ``StreamsServer``; requests still in
    flight get gunicorn's ``graceful_timeout`` to finish. Its HTTP protocol is uvicorn's
    ``auto`` one, answering malformed requests with JSON, and it serves no WebSocket
    (``UVICORN_SETTINGS``)."""

    # uvicorn_worker passes these to uvicorn's Config (its own: loop and http "auto").
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, **UVICORN_SETTINGS}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout

    async def _serve(self) -> None:
        # As UvicornWorker._serve, with the server above.
        self.config.app = self.wsgi
        server = StreamsServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
