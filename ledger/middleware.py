"""Rate-limit guessing of table links.

Links carry 128 random bits, so guessing is hopeless anyway; this makes it slow as well.
An address that asks for more than ``GUESS_LIMIT`` links that do not exist within
``GUESS_WINDOW`` seconds gets 429 for every table link, right or wrong, until the window
passes. Counters live in each worker's memory (no database work on the hot path, nothing to
lose that matters), so with several workers the limit is per worker.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

GUESS_LIMIT = 30
GUESS_WINDOW = 600  # seconds
LINK_PREFIXES = ("/t/", "/s/")


def client_address(request: HttpRequest) -> str:
    """The phone's address; behind our nginx (HTTPS on), the last hop it forwarded."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.HTTPS and forwarded:
        return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


class GuessLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.cache = caches["guesses"]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(LINK_PREFIXES):
            return self.get_response(request)
        key = f"misses:{client_address(request)}"
        if self.cache.get(key, 0) >= GUESS_LIMIT:
            minutes = GUESS_WINDOW // 60
            message = _("Too many wrong table links from here. Try again in %(n)s minutes.")
            return HttpResponse(message % {"n": minutes}, status=429, content_type="text/plain")
        response = self.get_response(request)
        if response.status_code == 404:
            self.cache.add(key, 0, GUESS_WINDOW)
            self.cache.incr(key)
        return response
