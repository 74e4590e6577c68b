"""Throttling (DRF's, counted in each worker's memory like the guess limit of the web pages).

Rates are in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class _Throttle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        # DRF reads the rates once, at import; these follow the settings as they are now.
        rates: dict[str, str | None] = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        return rates[self.scope]


class WriteThrottle(_Throttle):
    """Writes, per organiser account or else per address."""

    scope = "writes"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class CodeThrottle(_Throttle):
    """Anything that takes a code (a table's token, a password), per address."""

    scope = "codes"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
