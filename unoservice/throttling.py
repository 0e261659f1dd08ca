"""DRF throttling by scope, with the rates read from settings on every request.

A view opts in with ``throttle_scope = "registration" | "token" | "actions"``; the rates are
``settings.UNO_THROTTLE_RATES`` (from the environment, see settings.py), ``None`` meaning not
throttled. Reading them per request (DRF's own class reads them once, at import) lets a deployment
or a test change them without a restart. Anonymous callers are told apart by address (see
``NUM_PROXIES``), signed-in ones by user. The counts live in the default cache: set ``CACHE_URL``
so that every process shares them. A throttled caller gets 429, code ``throttled``, and a
``Retry-After`` header.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework.throttling import ScopedRateThrottle


class ScopedThrottle(ScopedRateThrottle):
    def get_rate(self) -> str | None:
        rates: dict[str, str | None] = settings.UNO_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No rate for throttle scope {self.scope!r}.")
        return rates[self.scope]
