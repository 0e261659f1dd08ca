"""DRF throttling by scope, with the rates read from settings on every request.

A view opts in with ``throttle_scope`` (a key of ``UNO_THROTTLE_RATES``); the rates are
``settings.UNO_THROTTLE_RATES`` (from the environment, see settings.py), ``None`` meaning not
throttled. Reading them per request (DRF's own class reads them once, at import) lets a deployment
or a test change them without a restart. Anonymous callers are told apart by address (see
``NUM_PROXIES``), signed-in ones by user. The counts live in the default cache: set ``CACHE_URL``
so that every process shares them. A throttled caller gets 429, code ``throttled``, and a
``Retry-After`` header.

Plain Django views (the admin's login form) are throttled with ``throttled(scope)``: their POSTs
count per client address, like the token endpoint's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

View = Callable[..., HttpResponse]


def rate_of(scope: str | None) -> str | None:
    rates: dict[str, str | None] = settings.UNO_THROTTLE_RATES
    if scope not in rates:
        raise ImproperlyConfigured(f"No rate for throttle scope {scope!r}.")
    return rates[scope]


class ScopedThrottle(ScopedRateThrottle):
    """A view may narrow its scope to some methods with ``throttle_methods`` (all by default)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        methods = getattr(view, "throttle_methods", None)
        if methods is not None and request.method not in methods:
            return True
        return bool(super().allow_request(request, view))

    def get_rate(self) -> str | None:
        return rate_of(self.scope)


class AddressThrottle(SimpleRateThrottle):
    """A count per client address for ``scope``, outside DRF's views."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_rate(self) -> str | None:
        return rate_of(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allows(self, request: HttpRequest) -> bool:
        # DRF's throttles read only the request's META (the address), which Django's has too.
        return bool(self.allow_request(request, None))  # type: ignore[arg-type]


def throttled(scope: str) -> Callable[[View], View]:
    """Count a plain Django view's POSTs per client address; past the rate, 429 ``throttled``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                throttle = AddressThrottle(scope)
                if not throttle.allows(request):
                    # Imported here: DRF imports this module while unoservice.errors imports DRF.
                    from unoservice.errors import error_page

                    wait = math.ceil(throttle.wait() or 1)
                    response = error_page(
                        429, "throttled", f"Too many attempts; retry in {wait} seconds."
                    )
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
