"""Tournament pages: set up, organise (players, rounds, swaps), register, results, projector.

Three links per event, like a table's: the organiser's (/o/<token>/), the self-registration
link for players (/j/<register_token>/), and the read-only results (/e/<read_token>/).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ledger import rights
from ledger.events import exports, selectors, services
from ledger.events.forms import EventForm
from ledger.forms import engine_message
from ledger.games import option_fields
from ledger.models import Event
from ledger.views import HtmxRequest
from scoring import GAMES, ScoringError
from scoring.games import DEFAULT_EVENT_GAME
from scoring.names import canonical


@require_http_methods(["GET", "POST"])
def event_new(request: HtmxRequest) -> HttpResponse:
    form = EventForm(request.POST or None, initial={"game": DEFAULT_EVENT_GAME, "rounds": 3})
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(
                **form.event(), owner=request.user if request.user.is_authenticated else None
            )
        except ScoringError as error:
            form.add_scoring_error(error)
        except ValueError as error:
            form.add_error(None, str(error))
        else:
            return redirect("event_organise", token=event.token)
    context = {"form": form, "option_rows": [(f, form[f.name]) for f in option_fields()]}
    return render(request, "ledger/event_new.html", context, status=400 if form.errors else 200)


@require_GET
def event_organise(request: HtmxRequest, token: str) -> HttpResponse:
    event = selectors.event_by_token(token)
    rights.grant_event(request, event)
    return _organise_page(request, event)


def _organise_page(request: HtmxRequest, event: Event, error: str = "") -> HttpResponse:
    rounds = list(event.round_set.all())
    standings = selectors.standings(event)
    context = {
        "event": event,
        "title": GAMES[event.game].label,
        "entries": event.entries.select_related("player"),
        "rounds": selectors.round_tables(event, rounds, standings),
        "standings": standings,
        "error": error,
        "can_seat": services.seat_refusal(event, rounds) is None,
        "register_url": request.build_absolute_uri(
            reverse("event_register", args=[event.register_token])
        ),
        "results_url": request.build_absolute_uri(
            reverse("event_results", args=[event.read_token])
        ),
    }
    return render(request, "ledger/event_organise.html", context, status=400 if error else 200)


def _organiser_change(
    request: HtmxRequest, token: str, change: Callable[[Event], object]
) -> HttpResponse:
    """Make one change through the organiser's link: back to its page, or the page with why not."""
    event = selectors.event_by_token(token)
    rights.grant_event(request, event)
    try:
        change(event)
    except ScoringError as refused:
        return _organise_page(request, event, engine_message(refused))
    except (ValueError, services.RoundStarted) as refused:
        return _organise_page(request, event, str(refused))
    return redirect("event_organise", token=token)


@require_POST
def event_add(request: HtmxRequest, token: str) -> HttpResponse:
    name = request.POST.get("name", "")
    return _organiser_change(
        request, token, lambda event: services.entry_add(event=event, name=name, organiser=True)
    )


@require_POST
def event_drop(request: HtmxRequest, token: str) -> HttpResponse:
    name = request.POST.get("name", "")
    return _organiser_change(
        request, token, lambda event: services.entry_drop(event=event, name=name)
    )


@require_POST
def event_seat(request: HtmxRequest, token: str) -> HttpResponse:
    return _organiser_change(request, token, lambda event: services.round_seat(event=event))


@require_POST
def event_begin(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    return _organiser_change(
        request,
        token,
        lambda event: services.round_begin(round=selectors.event_round(token, number)),
    )


@require_POST
def event_swap(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    first, second = request.POST.get("first", ""), request.POST.get("second", "")
    return _organiser_change(
        request,
        token,
        lambda event: services.round_swap(
            round=selectors.event_round(token, number), first=first, second=second
        ),
    )


@require_GET
def event_cards(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    """One printable card per table of the round: table number, players, and the QR code."""
    event = selectors.event_by_token(token)
    this_round = selectors.event_round(token, number)
    tables = this_round.tables.prefetch_related("seats__player").order_by("table_number")
    context = {"event": event, "round": this_round, "tables": tables}
    return render(request, "ledger/event_cards.html", context)


@require_http_methods(["GET", "POST"])
def event_register(request: HtmxRequest, token: str) -> HttpResponse:
    event = selectors.event_by_register_token(token)
    error, registered = "", None
    if request.method == "POST":
        try:
            registered = services.entry_add(
                event=event, name=request.POST.get("name", ""), organiser=False
            )
        except ScoringError as refused:
            error = engine_message(refused)
        except ValueError as refused:
            error = str(refused)
    context = {"event": event, "error": error, "registered": registered}
    return render(request, "ledger/event_register.html", context, status=400 if error else 200)


def _results(request: HtmxRequest, token: str, template: str) -> HttpResponse:
    event = selectors.event_by_read_token(token)
    rounds = list(event.round_set.all())
    context = {
        "event": event,
        "title": GAMES[event.game].label,
        "standings": selectors.standings(event),
        "rounds": rounds,
        "current": rounds[-1] if rounds else None,
    }
    return render(request, template, context)


@require_GET
def event_results(request: HtmxRequest, token: str) -> HttpResponse:
    return _results(request, token, "ledger/event_results.html")


@require_GET
def event_player(request: HtmxRequest, token: str, name: str) -> HttpResponse:
    """One player's rounds: table, table-mates, net (linked from the standings)."""
    event = selectors.event_by_read_token(token)
    standings = selectors.standings(event)
    row = next((r for r in standings.rows if canonical(r.name) == canonical(name)), None)
    if row is None:
        raise Http404("No such player")
    tables = {(t.round, t.number): t for t in standings.tables}
    rounds = []
    for number, (table_number, net) in sorted(row.rounds.items()):
        table = tables.get((number, table_number)) if table_number else None
        mates = [name for name in table.seating if name != row.name] if table else []
        rounds.append((number, table, mates, net))
    context = {"event": event, "row": row, "rounds": rounds}
    return render(request, "ledger/event_player.html", context)


@require_GET
def event_projector(request: HtmxRequest, token: str) -> HttpResponse:
    """Large type for a projector; refreshes itself every 10 seconds."""
    template = "ledger/event_projector.html"
    return _results(request, token, f"{template}#board" if request.htmx else template)


@require_GET
def event_export(request: HtmxRequest, token: str, kind: str) -> HttpResponseBase:
    event = selectors.event_by_read_token(token)
    return exports.event_response(event, kind)
