"""gunicorn with uvicorn workers (ASGI): ``gunicorn -c python:unoservice.gunicorn_asgi
unoservice.asgi:application``, the Procfile's web process.

An open event stream (``/api/v1/games/{id}/stream/``) is a coroutine waiting on a socket, not a
thread, so one worker holds thousands of them; docs/performance.md has the figures that decided
that the REST API is served by the same workers. Everything else is ``unoservice.gunicorn_conf``'s
(``PORT``, ``WEB_CONCURRENCY``, ``GUNICORN_TIMEOUT``, the preloaded application, the metrics
directory, the log format). ``timeout`` is the worker's heartbeat here, not a limit on a request:
streams stay open as long as their clients do.
"""

from __future__ import annotations

from unoservice.gunicorn_conf import *  # noqa: F403
from unoservice.gunicorn_conf import _int

wsgi_app = "unoservice.asgi:application"
# uvicorn's worker, ending the process's event streams as soon as it stops (unoservice.asgi_worker).
worker_class = "unoservice.asgi_worker.StreamsWorker"
# Not recycled after so many requests, unless GUNICORN_MAX_REQUESTS says so: a recycled worker
# drops every stream it holds (thousands), whose clients all reconnect to the other workers.
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
# uvicorn would otherwise take the client's address and scheme from X-Forwarded-* headers sent
# over loopback; Django decides that (DJANGO_NUM_PROXIES, DJANGO_SECURE_PROXY_SSL_HEADER), as
# under the gthread workers.
forwarded_allow_ips = ""
