"""``make run``'s server: one uvicorn process on ``unoservice.asgi:application``, ending its event
streams at once when stopped (Ctrl-C), as the deployed workers do (``unoservice.asgi_worker``);
plain uvicorn would wait for every open browser tab's stream to close before it exits. With no
broker it also runs the periodic tasks, on a thread of its own (``unoservice.local_beat``).

``python -m unoservice.serve [--host 0.0.0.0] [--port 8000]``
"""

from __future__ import annotations

import argparse
import contextlib

import uvicorn

from unoservice.asgi_worker import StreamsServer
from unoservice.http_protocols import UVICORN_SETTINGS
from unoservice.local_beat import start_if_no_broker

# Seconds the requests still in flight get once the streams have ended.
GRACEFUL_SECONDS = 5


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    config = uvicorn.Config(
        "unoservice.asgi:application",
        host=args.host,
        port=args.port,
        proxy_headers=False,  # Django decides (DJANGO_NUM_PROXIES), as under gunicorn
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        # Malformed HTTP refused with the API's JSON error, no WebSocket: as the workers.
        **UVICORN_SETTINGS,
    )
    # uvicorn raises the Ctrl-C it caught again once it has shut down, for the caller: here the
    # end of the program, not a traceback.
    beat = start_if_no_broker()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            StreamsServer(config).run()
    finally:
        if beat is not None:
            beat.stop()


if __name__ == "__main__":
    main()
