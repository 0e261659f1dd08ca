"""The Celery app: the worker that acts for players who run out of time.

Settings come from Django's, under the ``CELERY_`` namespace. With no ``CELERY_BROKER_URL`` the
tasks run in-process (eager), which is what a newcomer's ``make run`` uses.

Run it next to the web server with ``celery -A unoservice worker -l info`` and
``celery -A unoservice beat -l info`` (``make run`` does both when a broker is configured).
The worker and beat log through Django's ``LOGGING`` (JSON lines in production) rather than
Celery's own setup; with ``UNO_WORKER_METRICS_PORT`` set the worker serves its Prometheus
metrics (the timeouts and forfeits it applied) on that port.
"""

from __future__ import annotations

import os
from logging.config import dictConfig
from typing import Any

from celery import Celery
from celery.signals import setup_logging, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")

app = Celery("unoservice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def use_django_logging(**kwargs: Any) -> None:
    """Keep Django's LOGGING in charge of the worker's and beat's logs."""
    from django.conf import settings

    dictConfig(settings.LOGGING)


@worker_init.connect
def serve_worker_metrics(**kwargs: Any) -> None:
    from django.conf import settings

    port = settings.UNO_WORKER_METRICS_PORT
    if port:
        from unoservice.metrics import serve_worker_metrics as serve

        serve(port)
