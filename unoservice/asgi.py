"""ASGI entry point: ``unoservice.asgi:application`` (uvicorn workers, gunicorn_asgi).

Every request runs Django's ordinary (WSGI) handler in a pool of threads, as the gthread workers
did: the same middleware, DRF views and database connections kept per thread
(``DATABASE_CONN_MAX_AGE``). Django's own ASGI handler was measured slower here and opens a database
connection per request (docs/performance.md). What the pool does not do is wait: a response over an
async iterator (an event stream, ``service.apis.streams``) is sent from the event loop once its view
has returned, so an open stream holds no thread, only a coroutine and its socket.

``ASGI_THREADS`` sets the pool's size (8, as ``GUNICORN_THREADS`` did for gthread).
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from unoservice import garbage
from unoservice.asgi_bridge import Bridge

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")

application = Bridge(get_wsgi_application(), int(os.environ.get("ASGI_THREADS") or 8))
garbage.tune()
