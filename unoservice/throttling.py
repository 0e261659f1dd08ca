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

``FailureLimit`` counts failed attempts per key rather than requests per caller: a sign-in's
failures per username (``signin_failures``), whatever address they come from.

A rate's period may carry a count: ``10/15m`` is 10 in 15 minutes (DRF's own takes one unit only).
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

View = Callable[..., HttpResponse]


_PERIOD = re.compile(r"^(\d*)\s*([smhd])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_of(scope: str | None) -> str | None:
    rates: dict[str, str | None] = settings.UNO_THROTTLE_RATES
    if scope not in rates:
        raise ImproperlyConfigured(f"No rate for throttle scope {scope!r}.")
    return rates[scope]


def parse_rate(rate: str | None) -> tuple[int | None, int | None]:
    """``N/period`` as (N, seconds): ``30/minute``, ``10/hour`` as DRF reads them, and a period
    with a count, ``10/15m``, for a window of a few minutes (the sign-in failures')."""
    if rate is None:
        return None, None
    count, _, period = rate.partition("/")
    match = _PERIOD.match(period.strip())
    if not count.strip().isdigit() or match is None:
        raise ImproperlyConfigured(f"A throttle rate is N/period (30/minute, 10/15m): {rate!r}")
    return int(count), int(match.group(1) or 1) * _UNIT_SECONDS[match.group(2)]


class ScopedThrottle(ScopedRateThrottle):
    """A view may narrow its scope to some methods with ``throttle_methods`` (all by default)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        methods = getattr(view, "throttle_methods", None)
        if methods is not None and request.method not in methods:
            return True
        return bool(super().allow_request(request, view))

    def get_rate(self) -> str | None:
        return rate_of(self.scope)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return parse_rate(rate)


class AddressThrottle(SimpleRateThrottle):
    """A count per client address for ``scope``, outside DRF's views."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_rate(self) -> str | None:
        return rate_of(self.scope)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return parse_rate(rate)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allows(self, request: HttpRequest) -> bool:
        # DRF's throttles read only the request's META (the address), which Django's has too.
        return bool(self.allow_request(request, None))  # type: ignore[arg-type]


def _too_many(wait: int) -> HttpResponse:
    # Imported here: DRF imports this module while unoservice.errors imports DRF.
    from unoservice.errors import error_page

    response = error_page(429, "throttled", f"Too many attempts; retry in {wait} seconds.")
    response["Retry-After"] = str(wait)
    return response


def throttled(scope: str) -> Callable[[View], View]:
    """Count a plain Django view's POSTs per client address; past the rate, 429 ``throttled``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                throttle = AddressThrottle(scope)
                if not throttle.allows(request):
                    return _too_many(math.ceil(throttle.wait() or 1))
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def signin_limited(view: View) -> View:
    """A Django login form's POSTs (the admin's) under the failed sign-ins' limit per username,
    as the token endpoint's: the same accounts' passwords are guessed there. It signed in when
    it redirects with the request's user signed in; anything else is a failure."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username") if request.method == "POST" else None
        if not username:
            return view(request, *args, **kwargs)
        failures = signin_failures(username.strip())
        wait = failures.begin()
        if wait is not None:
            return _too_many(wait)
        response = view(request, *args, **kwargs)
        user = getattr(request, "user", None)
        if response.status_code == 302 and user is not None and user.is_authenticated:
            failures.succeeded()
        return response

    return wrapper


class FailureLimit:
    """At most N failed attempts per ``key`` in the window of ``scope``'s rate (``N/period``).

    An attempt takes a slot before it is tried (``begin``) and gives it back if it succeeds
    (``succeeded``): a failure keeps its slot for the window. Taking the slot first, with the
    cache's atomic ``add``, is what bounds a burst: DRF's throttles read a list, append and write
    it back, so many attempts sent at once (each checking a slow password hash before it would
    count) would all read a list not yet full. Each slot is a cache key of its own, set to when it
    was taken and expiring with the window, so the window slides as DRF's does and no table is
    needed. The key is hashed: no username is written to the cache as it is.
    """

    def __init__(self, scope: str, key: str) -> None:
        self.count, self.window = parse_rate(rate_of(scope))
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        self._slots = [f"throttle_{scope}_{digest}_{i}" for i in range(self.count or 0)]
        self._taken: str | None = None

    def begin(self) -> int | None:
        """Count this attempt as failed until ``succeeded``; None if it may go on, else the
        seconds until the oldest failure of the window leaves it (the ``Retry-After``)."""
        if self.count is None or self.window is None:
            return None
        now = time.time()
        held = cache.get_many(self._slots)
        for slot in self._slots:
            if slot not in held and cache.add(slot, now, self.window):
                self._taken = slot
                return None
        stamps = [float(at) for at in cache.get_many(self._slots).values()] or [now]
        return max(1, math.ceil(min(stamps) + self.window - now))

    def succeeded(self) -> None:
        """The attempt succeeded: it is not a failure, its slot is free again."""
        if self._taken is not None:
            cache.delete(self._taken)
            self._taken = None

    def clear(self) -> None:
        """Forget every failure of the key (its owner proved who they are otherwise)."""
        cache.delete_many(self._slots)
        self._taken = None


def signin_failures(username: str) -> FailureLimit:
    """The failed sign-ins of ``username``, counted ignoring case as usernames are unique (a
    guess at ``ALICE`` is a guess at ``alice``'s account), whether or not an account has it: a
    limit met only by names that exist would tell who plays here."""
    return FailureLimit("signin_failures", username.lower())
