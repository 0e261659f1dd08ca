"""The Celery app: the worker that acts for players who run out of time.

Settings come from Django's, under the ``CELERY_`` namespace. With no ``CELERY_BROKER_URL`` the
tasks run in-process (eager), which is what a newcomer's ``make run`` uses.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")

app = Celery("unoservice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
