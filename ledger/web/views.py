"""Site-wide views: the home page, error handlers and the probes load balancers call."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.log import log_response
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_safe
from django_htmx.middleware import HtmxDetails

from ledger.web.games import game_list


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``htmx`` says whether htmx sent it."""

    htmx: HtmxDetails


@require_safe
def stream(request: HttpRequest, token: str) -> HttpResponse:
    """A table's, event's or group's stream is answered by the ASGI server before Django sees
    it (ledger.web.push.streams, in ledger/asgi.py). A sync worker would be held by one phone
    for as long as its page is open, so here the answer is 503, and the page polls instead."""
    busy = HttpResponse(_("Streams are not served here."), status=503)
    busy["Content-Type"] = "text/plain; charset=utf-8"
    return busy


def unchanged(request: HtmxRequest, mark: str) -> HttpResponse | None:
    """204 for a live page's fetch of its live parts (ledger.js) that carries the mark they
    show (``?v=``, ledger.tables.selectors.marks) when it is still the mark; else None."""
    if request.htmx and request.GET.get("v") == mark:
        return HttpResponse(status=204)
    return None


def _api_error(request: HttpRequest, message: str, status: int) -> HttpResponse | None:
    """The API's error object, for a request under /api/."""
    if not request.path.startswith("/api/"):
        return None
    return JsonResponse(error_object(message), status=status)


def error_object(message: str) -> dict[str, Any]:
    """The API's error object for a problem with the request as a whole (CONTRACT.md)."""
    return {"error": message, "path": "", "errors": [{"error": message, "path": ""}]}


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400, or 413 for a body over the size limit: as JSON under /api/."""
    if isinstance(exception, RequestDataTooBig):
        message = _("The request is too large.")
        return _api_error(request, message, 413) or HttpResponse(message, status=413)
    return _api_error(request, _("Bad request."), 400) or defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: the API's error object under /api/, Django's page elsewhere."""
    return _api_error(request, "Not found.", 404) or defaults.page_not_found(request, exception)


OUTAGE_RETRY = 5  # seconds a client is asked to wait after an outage (Retry-After)

# What the request being answered has stored (ledger.changes.stored, once committed): a list
# that StoredMiddleware gives each request, so it holds for the request's own thread and
# context only.
_stored: ContextVar[list[bool] | None] = ContextVar("stored", default=None)


def heard_stored(**kwargs: object) -> None:
    """ledger.changes.stored's receiver (connected in LedgerConfig.ready)."""
    said = _stored.get()
    if said is not None:
        said.append(True)


@contextmanager
def noting_stored() -> Iterator[None]:
    """While a request is answered: note whether what it asked for was stored."""
    token = _stored.set([])
    try:
        yield
    finally:
        _stored.reset(token)


class StoredMiddleware:
    """Notes, for ``server_error``, whether the request stored what it asked for."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with noting_stored():
            return self.get_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """500, which is always a bug: as JSON under /api/, so clients can read it; Django logs it
    as an ERROR with its traceback (settings.LOGGING). A lost database (a restart, a network
    cut) is an outage, not a bug: 503, try again shortly, logged here with its traceback as a
    WARNING (Django would say ERROR of every 503: a restart wrote one for each request it cut).
    Logged once: Django does not log a response again.

    An outage after the commit of what the request asked for (its answer is read back after
    it) is answered as stored (``saved_unread``), never "nothing was saved": told that, a
    person enters it again from a fresh form, and a payment is paid twice."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError | InterfaceError):
        stored = bool(_stored.get())
        response = saved_unread(request) if stored else outage(request)
        log_response(
            "%s: %s",
            "Stored, its answer unread" if stored else response.reason_phrase,
            request.path,
            response=response,
            request=request,
            level="warning",
            exception=error,
        )
        return response
    message = "The server failed to answer. Try again; if it fails again, tell the organiser."
    return _api_error(request, message, 500) or defaults.server_error(request)


def _page(
    title: str, message: str, *, saved: bool = False, link: str = "", status: int
) -> HttpResponse:
    """A short page that touches no database (no template, no session)."""
    more = format_html('<p><a href="{}">{}</a></p>', link, _("Back to the page")) if link else ""
    return HttpResponse(
        format_html(
            '<!doctype html><html lang="{}"><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<title>{}</title><h1>{}</h1><p{}>{}</p>{}</html>",
            get_language(),
            title,
            title,
            mark_safe(' id="saved"') if saved else "",
            message,
            more,
        ),
        status=status,
    )


def outage(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After, in the user's language: the page touches no database. A write
    asked for is said not to be saved (it was not: ``server_error`` answers those that were
    with ``saved_unread``); a page only read is not, since its reader may have just been told
    that something was saved."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        message = _(
            "The ledger cannot reach its database for a moment: try again in a few seconds."
        )
    else:
        message = _(
            "The ledger cannot reach its database for a moment. Nothing was saved: "
            "try again in a few seconds."
        )
    response = _api_error(request, message, 503) or _page(
        _("Try again in a moment"), message, status=503
    )
    response["Retry-After"] = str(OUTAGE_RETRY)
    return response


def saved_unread(request: HttpRequest) -> HttpResponse:
    """What the request asked for is stored, but the database was lost before its answer was
    read back: never a 5xx, which a client takes for "not stored" and sends again. A page in
    the user's language saying so, and to look again (200, its message ``#saved``, as a hand
    saved says, so the phone's queue of kept hands takes it as saved); under /api/, 202 with
    ``{"stored": true, "message": ...}``, the message in the user's language."""
    message = _(
        "Saved. The ledger cannot read it back for a moment: look again in a few seconds to see it."
    )
    if request.path.startswith("/api/"):
        return JsonResponse({"stored": True, "message": message}, status=202)
    back = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return _page(_("Saved"), message, saved=True, link=back if safe else "", status=200)


def ping(request: HttpRequest) -> HttpResponse:
    """A bare view, no database: for load balancers, and the load benchmark's ceiling."""
    return HttpResponse("ok", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/home.html", {"games": game_list()})
