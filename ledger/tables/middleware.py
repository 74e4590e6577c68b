"""The table's live poll, answered before the rest of the middleware (settings.MIDDLEWARE):
the tables' own route, so it lives with them and not with what every page shares (ledger.web,
which imports no domain)."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from ledger.tables import selectors
from ledger.web.middleware import guesses_exhausted
from ledger.web.shedding import busy, shed

LIVE_POLL = re.compile(r"/t/([\w-]{1,32})/live/")


class LivePollMiddleware:
    """The live poll's "nothing new" (204), answered before the rest of the middleware; and
    past capacity, the poll shed (503, ``shed``) before it costs anything.

    Every phone at every table asks every few seconds, and nearly always nothing has changed.
    That answer needs two indexed reads, the table's revision and its address's guess count,
    and nothing else: no session, language, CSRF or user, which a bodiless 204 never uses.
    Anything else (a change, a wrong link, an address over the guess limit) goes on through
    the whole stack to ``views.live``, which answers the same way on its own.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = LIVE_POLL.fullmatch(request.path_info)
        if match and request.method == "GET" and shed(request):
            return busy(request)
        if match and request.method == "GET":
            revision = selectors.revision(match[1])
            if (
                revision is not None
                and request.GET.get("rev") == str(revision)
                and not guesses_exhausted(request)
            ):
                return HttpResponse(status=204)
        return self.get_response(request)
