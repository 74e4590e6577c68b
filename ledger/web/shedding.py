"""Past capacity the server sheds what can wait (a table's live poll, a stream being opened)
before it slows what cannot (a save): what waited longer than ``settings.SHED_POLLS_AFTER_MS``
to be taken is answered 503 with Retry-After at once, and the page asks again later.

Shedding is the server working as meant, not an error: each process says in its log how much
it shed, once a minute at most (``Shedding``), rather than a line for each (``NotShed``).

Light on purpose (no models): the logging configuration loads ``NotShed`` before the apps.
"""

from __future__ import annotations

import logging
import math
import threading
import time

from django.conf import settings
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

SHED_RETRY_AFTER = 5  # seconds a shed poll is asked to wait; the page adds up to half again
SHED_LOG_EVERY = 60.0  # seconds: the most often the log says how much a process shed
# The mark is an attribute that HttpRequest does not declare, so it is set and read by name.
_SHED = "shed"


def waited(request: HttpRequest) -> float:
    """Seconds since the proxy took the request (nginx's ``X-Request-Start: t=<seconds>``), or
    0 without the header."""
    stamp = request.headers.get("X-Request-Start", "").removeprefix("t=")
    try:
        return max(0.0, time.time() - float(stamp))
    except ValueError:
        return 0.0


def shed(request: HttpRequest) -> bool:
    """Past capacity, a poll that waited longer than ``settings.SHED_POLLS_AFTER_MS`` for a
    worker gives way: the phones ask again later, and the saves waiting behind it come sooner."""
    most = settings.SHED_POLLS_AFTER_MS / 1000
    return most > 0 and waited(request) > most


def retry_after(seconds: float) -> str:
    """A designed wait as a Retry-After header says it: whole seconds, at the pace the live
    pages' waits run at (``settings.LIVE_WAITS_PERCENT``)."""
    return str(max(1, math.ceil(seconds * settings.LIVE_WAITS_PERCENT / 100)))


def live_waits(request: HttpRequest) -> dict[str, int]:
    """For base.html's <html data-waits>: the pace the page's own waits run at (ledger.js)."""
    return {"live_waits_percent": settings.LIVE_WAITS_PERCENT}


def busy(request: HttpRequest) -> HttpResponse:
    """The answer to what is shed: ask again after SHED_RETRY_AFTER seconds. Counted in the
    log once a minute (``Shedding``), not logged one by one (``NotShed``)."""
    setattr(request, _SHED, True)
    shedding.add()
    response = HttpResponse("Busy", status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = retry_after(SHED_RETRY_AFTER)
    return response


class Shedding:
    """How much this process shed lately (``what``: shed how): said in the log at once, then
    once a minute at most while it goes on. An operator sees that the server is past capacity,
    and how far."""

    def __init__(
        self, what: str = "live fetches or stream openings shed (503, Retry-After)"
    ) -> None:
        self._what = what
        self._lock = threading.Lock()  # the streams servers shed on a pool's threads
        self._count = 0
        self._since = time.monotonic() - SHED_LOG_EVERY

    def add(self) -> None:
        with self._lock:
            self._count += 1
            now = time.monotonic()
            if now - self._since < SHED_LOG_EVERY:
                return
            count, self._count, self._since = self._count, 0, now
        log.warning("Past capacity: %d %s since the last line like this one", count, self._what)


shedding = Shedding()


class NotShed(logging.Filter):
    """Leaves out Django's line for a shed answer: a 503, which it would log as an error, one
    line per poll by the thousand in an overload, burying the real errors. Past capacity,
    shedding is the server working as meant; ``Shedding`` says how much of it there is."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), _SHED, False)
