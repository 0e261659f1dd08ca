"""WSGI entry point: ``unoservice.wsgi:application``."""

import os

from django.core.wsgi import get_wsgi_application

from unoservice import garbage

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "unoservice.settings")

application = get_wsgi_application()
garbage.tune()
