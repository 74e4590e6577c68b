"""Rate-limit guessing of links and passwords (the live poll's early "nothing new" is the
tables', ledger/tables/middleware.py).

Links carry 128 random bits, so guessing is hopeless anyway; this makes it slow as well.
Every kind of link counts in one limit, on the pages, the API and the streams (ledger/web/push.py
runs this middleware too): a table's, its read-only link, an event's organiser, register and
results links, a group's, and an organiser's token (in a link, or the API's
X-Organiser-Token). An address that tries more than ``settings.GUESS_LIMIT`` that match
nothing within ``GUESS_WINDOW`` seconds gets 429 for every link (``LINK_PREFIXES``), right or
wrong, until the window passes. Only a token that matches nothing counts
(``ledger.links.NoSuchLink``, ``limits.mark_wrong_link``): a missing hand under a real table, or an
unknown export, is a mistake, not a guess. Sign-ins at the admin count with the API's
(``settings.LOGIN_LIMIT``). The counts are shared by every worker and server, per real client
address (ledger/web/limits.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import ngettext

from ledger.links import NoSuchLink
from ledger.web import limits
from ledger.web.views import error_object

GUESS_WINDOW = 600  # seconds
# Every path that carries a link: an address over the guess limit is refused here, right link
# or wrong (tests/ledger/test_limits.py checks that every route taking a token is under one).
LINK_PREFIXES = (
    *("/t/", "/s/", "/o/", "/j/", "/e/", "/g/"),
    *("/api/v1/sessions/", "/api/v1/shared/", "/api/v1/events/", "/api/v1/register/"),
    *("/api/v1/results/", "/api/v1/groups/"),
)


def guesses_exhausted(request: HttpRequest) -> bool:
    """This address tried too many wrong links lately: every link answers 429. Read from the
    count every worker and server shares, at every request: a block takes effect on every
    route, in every process, at the moment the count reaches it. (Each worker kept what it read
    for 5 seconds until issue 45: for that long after an address reached the limit, a right
    link still answered on the workers that had read it before, and told a guesser a hit.)"""
    address = limits.client_address(request)
    return limits.count(limits.GUESSES, address) >= settings.GUESS_LIMIT


def _too_many(request: HttpRequest, message: str, wait: float) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(error_object(message), status=429)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(math.ceil(wait))
    return response


def _too_many_guesses(request: HttpRequest, address: str) -> HttpResponse:
    wait = limits.wait(limits.GUESSES, address, GUESS_WINDOW)
    n = max(1, math.ceil(wait / 60))
    message = ngettext(
        "Too many wrong table links from here. Try again in %(n)s minute.",
        "Too many wrong table links from here. Try again in %(n)s minutes.",
        n,
    )
    return _too_many(request, message % {"n": n}, wait)


# Posts counted elsewhere (the API by its throttles, sign-ins above) or that change nothing stored
# (the language).
_NOT_WEB_WRITES = ("/api/", "/admin/", "/i18n/")


def _write_limited(request: HttpRequest) -> HttpResponse | None:
    """A web form's post counts with the API's writes, in the same shared count (per account,
    else per address: ledger/api/throttles.py), so neither can be used to go round the other.
    Returns the 429 page once the count is past the rate."""
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["writes"]
    if rate is None:
        return None
    most, window = limits.parse_rate(rate)
    user = getattr(request, "user", None)
    client = (
        f"account:{user.pk}"
        if user is not None and user.is_authenticated
        else limits.client_address(request)
    )
    if limits.allow(limits.WRITES, client, window, most):
        return None
    wait = limits.wait(limits.WRITES, client, window)
    n = max(1, math.ceil(wait))
    message = ngettext(
        "Too many changes from here in a short time. Try again in %(n)s second.",
        "Too many changes from here in a short time. Try again in %(n)s seconds.",
        n,
    )
    return _too_many(request, message % {"n": n}, wait)


@functools.cache
def _admin_login() -> str:
    return reverse("admin:login")


class GuessLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path == _admin_login():
            return self._sign_in(request)
        posts = request.method == "POST" and not request.path.startswith(_NOT_WEB_WRITES)
        if posts and (refused := _write_limited(request)):
            return refused
        # The exact count is kept below, on a guess.
        if request.path.startswith(LINK_PREFIXES) and guesses_exhausted(request):
            return _too_many_guesses(request, limits.client_address(request))
        response = self.get_response(request)
        # Counted after the answer, and checked again: two workers that both let a guess
        # through on the same count cannot both answer it.
        if limits.is_wrong_link(request):
            address = limits.client_address(request)
            guesses = limits.hit(limits.GUESSES, address, GUESS_WINDOW)
            if guesses > settings.GUESS_LIMIT:
                return _too_many_guesses(request, address)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        if isinstance(exception, NoSuchLink):
            limits.mark_wrong_link(request)  # the API marks its own (ledger/api/errors.py)

    def _sign_in(self, request: HttpRequest) -> HttpResponse:
        """Every attempt counts, right or wrong, with the API's (ledger/api/throttles.py)."""
        address = limits.client_address(request)
        if not limits.allow(limits.LOGINS, address, limits.LOGIN_WINDOW, settings.LOGIN_LIMIT):
            wait = limits.wait(limits.LOGINS, address, limits.LOGIN_WINDOW)
            n = max(1, math.ceil(wait / 60))
            message = ngettext(
                "Too many sign-in attempts from here. Try again in %(n)s minute.",
                "Too many sign-in attempts from here. Try again in %(n)s minutes.",
                n,
            )
            return _too_many(request, message % {"n": n}, wait)
        return self.get_response(request)
