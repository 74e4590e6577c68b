"""Tournament pages: set up, organise (players, rounds, swaps), register, results, projector.

Three links per event, like a table's: the organiser's (/o/<token>/), the self-registration
link for players (/j/<register_token>/), and the read-only results (/e/<read_token>/).

A group's players are registered in one step from the group's link, pasted.

Seating a round, beginning it, a drop and a swap are asked first: the first POST answers with
a page that says what will happen, whose button posts the same again with confirm=1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ledger.events import exports, selectors, services
from ledger.events.forms import DropForm, EventForm, GroupLinkForm, SwapForm
from ledger.models import Event, Group, Round
from ledger.web import limits, rights
from ledger.web.forms import engine_message, whole_number
from ledger.web.games import option_fields
from ledger.web.views import HtmxRequest, unchanged
from scoring import GAMES, ScoringError
from scoring.games import DEFAULT_EVENT_GAME
from scoring.names import canonical


@require_http_methods(["GET", "HEAD", "POST"])
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
    return render(request, "events/event_new.html", context, status=400 if form.errors else 200)


@require_safe
def event_organise(request: HtmxRequest, token: str) -> HttpResponse:
    """The organiser's page; for htmx, its live parts (the rounds' tables, the standings)."""
    event = _organiser(request, token)
    if request.htmx:
        return _organise_page(request, event, template="events/event_organise.html#live")
    return _organise_page(request, event, focus=request.GET.get("added") == "1")


def _organiser(request: HtmxRequest, token: str) -> Event:
    """The event the organiser's link opens; this browser organises its tables from now on."""
    event = selectors.event_by_token(token)
    rights.grant_event(request, event)
    return event


def _organise_page(
    request: HtmxRequest, event: Event, error: str = "", template: str = "", **players: Any
) -> HttpResponse:
    """The organiser's page (or its ``template`` part), with ``error`` if a change was refused;
    ``players``: the register forms' state (an error, who was added, whether the name box has
    focus, the group's link as pasted). A fetch of the live parts that shows the mark still
    current is answered 204."""
    mark = selectors.mark(event)  # before what it marks: never newer than the page
    if same := unchanged(request, mark):
        return same
    rounds = list(event.round_set.all())
    standings = selectors.standings(event)
    open_round = rounds[-1] if rounds and rounds[-1].started is None else None
    context = {
        "event": event,
        "mark": mark,
        "title": _(GAMES[event.game].label),
        "entries": event.entries.select_related("player"),
        "rounds": selectors.round_tables(event, rounds, standings),
        "standings": standings,
        "error": error,
        "can_seat": services.seat_refusal(event, rounds) is None,
        "undo": event.undo[-1] if event.undo else None,
        "undo_steps": len(event.undo),
        "swap_form": (
            SwapForm(places=selectors.round_places(event, open_round)) if open_round else None
        ),
        "register_url": request.build_absolute_uri(
            reverse("event_register", args=[event.register_token])
        ),
        "results_url": request.build_absolute_uri(
            reverse("event_results", args=[event.read_token])
        ),
        **players,
    }
    failed = error or players.get("add_error") or players.get("group_error")
    status = 400 if failed and not request.htmx else 200
    return render(request, template or "events/event_organise.html", context, status=status)


def _change(request: HtmxRequest, event: Event, change: Callable[[], object]) -> HttpResponse:
    """Make one change: back to the organiser's page, or the page with why not."""
    try:
        change()
    except ScoringError as refused:
        return _organise_page(request, event, engine_message(refused))
    except (ValueError, services.RoundStarted) as refused:
        return _organise_page(request, event, str(refused))
    return redirect("event_organise", token=event.token)


def _ask(request: HtmxRequest, event: Event, kind: str, **about: Any) -> HttpResponse | None:
    """None if this POST confirms the change; else the page that asks first (changing
    nothing), whose button posts the same fields again with confirm=1."""
    if request.POST.get("confirm") == "1":
        return None
    fields = [
        (name, value)
        for name, value in request.POST.items()
        if name not in {"csrfmiddlewaretoken", "confirm"}
    ]
    context = {"event": event, "kind": kind, "fields": fields, **about}
    return render(request, "events/event_confirm.html", context)


@require_POST
def event_add(request: HtmxRequest, token: str) -> HttpResponse:
    """Register a player; the name box keeps the focus for the next (htmx swaps the players'
    part of the page; without it, the page comes back with the box focused)."""
    event = _organiser(request, token)
    name, added, error = request.POST.get("name", ""), "", ""
    try:
        added = services.entry_add(event=event, name=name, organiser=True).player.name
    except ScoringError as refused:
        error = engine_message(refused)
    except ValueError as refused:
        error = str(refused)
    form: dict[str, Any] = {"add_error": error, "added": added, "focus": True}
    form["typed"] = name if error else ""  # kept to correct; a new name starts empty
    if request.htmx:
        return _organise_page(request, event, template="events/event_organise.html#players", **form)
    if error:
        return _organise_page(request, event, **form)
    return redirect(reverse("event_organise", args=[token]) + "?added=1#players")


@require_POST
def event_add_group(request: HtmxRequest, token: str) -> HttpResponse:
    """Register every player of the group whose link the organiser pasted; back to the page,
    which says how many were added."""
    event = _organiser(request, token)
    form = GroupLinkForm(request.POST)
    if not form.is_valid():
        if form.wrong_link:
            limits.mark_wrong_link(request)  # a group's token is guessed as a table's is
        error = " ".join(str(message) for message in form.errors.get("link", []))
        return _organise_page(request, event, group_error=error, group_link=form.data.get("link"))
    group = form.cleaned_data["link"]

    def register() -> None:
        done = services.group_register(event=event, group=group)
        messages.success(request, _group_added(group, done))

    return _change(request, event, register)


def _group_added(group: Group, done: services.GroupRegistered) -> str:
    n, already = len(done.added), len(done.already)
    about = {"n": n, "group": group.name, "already": already}
    if not n:
        return _("Everyone in %(group)s was already registered.") % about
    if not already:
        return (
            ngettext("Added %(n)s player from %(group)s.", "Added %(n)s players from %(group)s.", n)
            % about
        )
    return (
        ngettext(
            "Added %(n)s player from %(group)s (%(already)s already registered).",
            "Added %(n)s players from %(group)s (%(already)s already registered).",
            n,
        )
        % about
    )


@require_POST
def event_drop(request: HtmxRequest, token: str) -> HttpResponse:
    event = _organiser(request, token)
    form = DropForm(request.POST, names=selectors.active_names(event))
    if not form.is_valid():
        return _organise_page(request, event, form.error_text())
    name = form.cleaned_data["name"]
    return _ask(request, event, "drop", name=name) or _change(
        request, event, lambda: services.entry_drop(event=event, name=name)
    )


@require_POST
def event_seat(request: HtmxRequest, token: str) -> HttpResponse:
    event = _organiser(request, token)
    rounds = list(event.round_set.all())
    if refusal := services.seat_refusal(event, rounds):
        return _organise_page(request, event, str(refusal))
    players = len(selectors.active_names(event))
    return _ask(request, event, "seat", number=len(rounds) + 1, players=players) or _change(
        request, event, lambda: services.round_seat(event=event)
    )


@require_POST
def event_begin(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    event = _organiser(request, token)
    this_round = selectors.event_round(token, number)
    if this_round.started is not None:  # begun already (a second tap): nothing to ask or do
        return redirect("event_organise", token=token)
    return _ask(request, event, "begin", round=this_round) or _change(
        request, event, lambda: services.round_begin(round=this_round)
    )


@require_POST
def event_swap(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    event = _organiser(request, token)
    this_round = selectors.event_round(token, number)
    if this_round.started is not None:
        return _organise_page(request, event, _begun(this_round))
    form = SwapForm(request.POST, places=selectors.round_places(event, this_round))
    if not form.is_valid():
        return _organise_page(request, event, form.error_text())
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    return _ask(request, event, "swap", round=this_round, first=first, second=second) or _change(
        request,
        event,
        lambda: services.round_swap(round=this_round, first=first, second=second),
    )


def _begun(this_round: Round) -> str:
    return _("Round {n} has begun: its seating can no longer change.").format(n=this_round.number)


@require_POST
def event_undo(request: HtmxRequest, token: str) -> HttpResponse:
    """Undo the latest change shown on the page (``steps``: how many could be undone then)."""
    event = _organiser(request, token)
    steps = whole_number(request.POST.get("steps"))
    return _change(request, event, lambda: services.event_undo(event=event, steps=steps))


@require_safe
def event_cards(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    """One printable card per table of the round: table number, players, and the QR code."""
    event = selectors.event_by_token(token)
    this_round = selectors.event_round(token, number)
    tables = this_round.tables.with_seats().order_by("table_number")
    context = {"event": event, "round": this_round, "tables": tables}
    return render(request, "events/event_cards.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
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
    return render(request, "events/event_register.html", context, status=400 if error else 200)


def _results(event: Event, mark: str) -> dict[str, Any]:
    rounds = list(event.round_set.all())
    return {
        "event": event,
        "mark": mark,
        "title": _(GAMES[event.game].label),
        "standings": selectors.standings(event),
        "rounds": rounds,
        # Not "current": base.html names the page's language so, and would hide it.
        "last_round": rounds[-1] if rounds else None,
    }


@require_safe
def event_results(request: HtmxRequest, token: str) -> HttpResponse:
    """The standings; for htmx, their live part."""
    event = selectors.event_by_read_token(token)
    mark = selectors.mark(event)
    template = "events/event_results.html#live" if request.htmx else "events/event_results.html"
    return unchanged(request, mark) or render(request, template, _results(event, mark))


@require_safe
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
    return render(request, "events/event_player.html", context)


@require_safe
def event_projector(request: HtmxRequest, token: str) -> HttpResponse:
    """Large type for a projector, a screen of standings at a time, or, while the latest round
    has no hand yet, of who sits where; every 10 seconds it turns to the next screen if there
    are more, and it shows a table's change as it comes (``?v=``: ledger.js)."""
    template = "events/event_projector.html"
    event = selectors.event_by_read_token(token)
    mark = selectors.mark(event)
    if same := unchanged(request, mark):
        return same
    context = _results(event, mark)
    page = whole_number(request.GET.get("page"))
    context["board"] = selectors.board(context["standings"].rows, page)
    context["seating"] = selectors.seating_board(context["standings"], context["last_round"], page)
    return render(request, f"{template}#board" if request.htmx else template, context)


@require_safe
def event_export(request: HtmxRequest, token: str, kind: str) -> HttpResponseBase:
    event = selectors.event_by_read_token(token)
    return exports.event_response(event, kind, words=True)
