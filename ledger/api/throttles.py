"""Throttling: DRF's rates, counted per real client address in the store that every worker
and server shares (ledger/web/limits.py), like the guess limit of the web pages.

Rates are in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]; sign-ins count with the
admin's, ``settings.LOGIN_LIMIT`` in ``limits.LOGIN_WINDOW``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from ledger.web import limits

if TYPE_CHECKING:
    from rest_framework.views import APIView


class _Throttle(SimpleRateThrottle):
    """A count per client (by default its address) whose window starts at its first request."""

    scope: str
    # Set by DRF's __init__ from the rate (their stubs leave them out); every scope here has one.
    num_requests: int
    duration: int
    client: str

    def get_rate(self) -> str | None:
        # DRF reads the rates once, at import; these follow the settings as they are now.
        rates: dict[str, str | None] = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        return rates[self.scope]

    def get_ident(self, request: Request) -> str:
        # DRF's own believes X-Forwarded-For as sent: anyone could say they are anyone.
        return limits.client_address(request._request)

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.get_ident(request)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        client = self.get_cache_key(request, view)
        if client is None:
            return True
        self.client = client
        return limits.allow(self.scope, self.client, self.duration, self.num_requests)

    def wait(self) -> float:
        return limits.wait(self.scope, self.client, self.duration)


class WriteThrottle(_Throttle):
    """Writes, per organiser account or else per address."""

    scope = limits.WRITES

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        if request.user.is_authenticated:
            return f"account:{request.user.pk}"
        return self.get_ident(request)


class CodeThrottle(_Throttle):
    """Anything that takes a code (a table's token, a password), per address."""

    scope = "codes"


class LoginThrottle(_Throttle):
    """Sign-ins (auth/token/), per address, in one count with the admin's
    (ledger/web/middleware.py)."""

    scope = limits.LOGINS

    def __init__(self) -> None:
        self.num_requests, self.duration = settings.LOGIN_LIMIT, limits.LOGIN_WINDOW
        self.rate = f"{self.num_requests}/{self.duration}s"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if super().allow_request(request, view):
            return True
        raise Throttled(self.wait(), "Too many sign-in attempts from here.")


HANDS_PER_WRITE = 100  # what a request scores for the price of one write, beyond its own


def charge_by_cost(request: Request, view: APIView, cost: int) -> None:
    """Count ``cost`` more writes for a request that asks for more work than one (scoring many
    hands, say), so that one address cannot hold the workers with a few large requests; raise
    Throttled once the count is past the rate."""
    throttle = WriteThrottle()
    if cost <= 0 or throttle.rate is None:
        return
    client = throttle.get_cache_key(request, view)
    if client is None:
        return
    if not limits.allow(limits.WRITES, client, throttle.duration, throttle.num_requests, cost):
        throttle.client = client
        raise Throttled(throttle.wait())
