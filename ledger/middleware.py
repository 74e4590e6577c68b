"""Rate-limit guessing of table links; answer the live poll's "nothing new" early.

Links carry 128 random bits, so guessing is hopeless anyway; this makes it slow as well.
An address that asks for more than ``settings.GUESS_LIMIT`` links that do not exist within
``GUESS_WINDOW`` seconds gets 429 for every table link, right or wrong, until the window
passes. Counters live in each worker's memory (no database work on the hot path, nothing to
lose that matters), so with several workers the limit is per worker.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from ledger import selectors

GUESS_WINDOW = 600  # seconds
LINK_PREFIXES = (
    *("/t/", "/s/", "/o/", "/j/", "/e/"),
    *("/api/v1/sessions/", "/api/v1/shared/", "/api/v1/events/", "/api/v1/register/"),
    "/api/v1/results/",
)


def client_address(request: HttpRequest) -> str:
    """The phone's address; behind our nginx (HTTPS on), the last hop it forwarded."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.HTTPS and forwarded:
        return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


def _misses_key(request: HttpRequest) -> str:
    return f"misses:{client_address(request)}"


def guesses_exhausted(request: HttpRequest) -> bool:
    """This address tried too many wrong links lately: every table link answers 429."""
    return bool(caches["guesses"].get(_misses_key(request), 0) >= settings.GUESS_LIMIT)


class GuessLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.cache = caches["guesses"]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(LINK_PREFIXES):
            return self.get_response(request)
        if guesses_exhausted(request):
            minutes = GUESS_WINDOW // 60
            message = _("Too many wrong table links from here. Try again in %(n)s minutes.")
            message %= {"n": minutes}
            if request.path.startswith("/api/"):
                return JsonResponse({"error": message, "path": ""}, status=429)
            return HttpResponse(message, status=429, content_type="text/plain")
        response = self.get_response(request)
        if response.status_code == 404:
            self.cache.add(_misses_key(request), 0, GUESS_WINDOW)
            self.cache.incr(_misses_key(request))
        return response


LIVE_POLL = re.compile(r"/t/([\w-]{1,32})/live/")


class LivePollMiddleware:
    """The live poll's "nothing new" (204), answered before the rest of the middleware.

    Every phone at every table asks every few seconds, and nearly always nothing has changed.
    That answer needs one indexed read and nothing else: no session, language, CSRF or user,
    which a bodiless 204 never uses. Anything else (a change, a wrong link, an address over
    the guess limit) goes on through the whole stack to ``views.live``, which answers the same
    way on its own.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = LIVE_POLL.fullmatch(request.path_info)
        if match and request.method == "GET" and not guesses_exhausted(request):
            revision = selectors.revision(match[1])
            if revision is not None and request.GET.get("rev") == str(revision):
                return HttpResponse(status=204)
        return self.get_response(request)
