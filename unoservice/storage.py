"""The static files' storage with debug off: hashed, compressed copies made by ``collectstatic``.

WhiteNoise's manifest storage answers every page that links a static file with a 500
("Missing staticfiles manifest entry") when ``collectstatic`` has not run, as when gunicorn is
started by hand from a checkout (issue 11). Here a file missing from the manifest keeps its plain
name instead, and WhiteNoise then serves it from the app that ships it (the middleware below
looks in the apps when no manifest was collected): the pages work, only without the long-lived
hashed URLs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

from unoservice import webclient


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # neither in the manifest nor collected: the app's own copy
            return name


def collected() -> bool:
    return (Path(settings.STATIC_ROOT) / "staticfiles.json").is_file()


class _Settings:
    """Django's settings, with WhiteNoise's finders on when nothing was collected."""

    def __getattr__(self, name: str) -> Any:
        if name == "WHITENOISE_USE_FINDERS":
            return settings.WHITENOISE_USE_FINDERS or not collected()
        return getattr(settings, name)


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, deciding when the web process starts (not when settings load) where to look."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        super().__init__(get_response, settings=_Settings())
        # The web client's assets (web/app/), at /app/. Only that folder: web/ also holds the
        # client's node tooling, which is not for serving.
        self.add_files(str(Path(settings.UNO_WEB_ROOT) / "app"), prefix=webclient.ASSETS)
