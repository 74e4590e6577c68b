"""A table's pages: start one, enter and correct hands, history, summary, exports, QR.

Thin views: parse the request, call one service or selector, render.
"""

from __future__ import annotations

import io
import json
import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

import segno
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBase,
    HttpResponseForbidden,
    QueryDict,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ledger.links import NoSuchLink
from ledger.models import Hand, TableSession
from ledger.players.views import Picker, picker
from ledger.tables import clock, display, exports, selectors, services
from ledger.tables.clock import TimeFields
from ledger.tables.forms import MAX_PLAYERS, HandForm, SessionForm, hand_rows
from ledger.tables.live import part as live_part
from ledger.tables.summary import summarise
from ledger.web import me, rights
from ledger.web.forms import (
    START_KEY_REUSED,
    engine_message,
    posted_key,
    whole_number,
)
from ledger.web.games import game_choices, option_fields
from ledger.web.views import HtmxRequest
from scoring import GAMES, HandResult, ScoringError
from scoring.games import DEFAULT_TABLE_GAME
from scoring.options import ENDS


@require_http_methods(["GET", "HEAD", "POST"])
def session_new(request: HtmxRequest) -> HttpResponse:
    form = SessionForm(request.POST or None, initial={"game": DEFAULT_TABLE_GAME, "first": "draw"})
    key = posted_key(request.POST)  # kept when the form comes back: a retry is a retry
    if request.method == "POST" and form.is_valid():
        try:
            owner = request.user if request.user.is_authenticated else None
            session = services.session_create(
                **form.document(),
                owner=owner,
                ends_at=form.ends_at(),
                time_zone=form.cleaned_data["time_zone"],
                idempotency_key=key,
                sender=rights.sender(request, request.user),
                asked=form.cleaned_data,  # the lots not drawn yet: the same for every send
            )
        except ScoringError as error:
            form.add_scoring_error(error)
        except services.StartKeyReused:
            form.add_error(None, START_KEY_REUSED)
            key = ""
        else:
            rights.grant_table(request, session)
            return redirect("table", token=session.token)
    # Names are not published: only a signed-in organiser's own tables' names are suggested
    # from here; ledger.js adds the names this phone has used, which it keeps on the phone.
    context = {
        "form": form,
        "games": [
            (key, label, sorted(GAMES[key].option_names), max(GAMES[key].player_counts))
            for key, label in game_choices()
        ],
        "option_fields": option_fields(),
        "player_fields": [form[f"player_{i}"] for i in range(MAX_PLAYERS)],
        "time_fields": [form["minutes"], form["until"]],
        "known_players": selectors.names_at_tables_of(request.user),
        "start_key": key or secrets.token_urlsafe(16),
    }
    return render(request, "tables/session_new.html", context, status=400 if form.errors else 200)


def _locked(request: HtmxRequest) -> HttpResponse:
    message = _("This table is locked by its organiser: nothing was saved.")
    return HttpResponse(message, status=423, content_type="text/plain; charset=utf-8")


def _hand_fields(
    request: HtmxRequest,
    sheet: selectors.ScoreSheet,
    *,
    expected: tuple[str, str],
    data: dict[str, Any] | None = None,
    post: Any = None,
    errors: dict[str, str] | None = None,
) -> dict[str, Any]:
    """What the hand fields show: what was posted, else the stored hand, else what the rules
    expect (``expected`` is who leads and which way)."""
    session, seating = sheet.session, sheet.seating
    game = GAMES[session.game]
    data = data or {}
    first = (post.get("first") if post else None) or data.get("first") or expected[0]
    direction = (post.get("direction") if post else None) or data.get("direction") or expected[1]
    if post:
        chosen = (post.get("event", ""), post.get("event_player", ""))
    else:
        recorded, caller = display.hand_event(data)
        chosen = (recorded.value if recorded else "", caller)
    # The tile picker offers each tile as often as the deck holds it.
    deck = game.deck(len(seating))
    rows = hand_rows(
        session.game,
        seating,
        first=first,
        options=sheet.options,
        data=data,
        post=post,
        errors=errors,
    )
    return {
        "rows": rows,
        "tiles_shown": any(row["tiles"] or "tiles" in row["errors"] for row in rows),
        "tiles_label": _(game.entry.tiles_label),
        # The picker's running total of pips is shown where the pips are what is asked for.
        "tile_sum": [field.key for field in game.entry.fields] == ["pips"],
        "first": first,
        "direction": direction,
        "errors": errors or {},
        "events": [(event.value, _(event.label)) for event in sorted(game.events)],
        "callers": any(event.has_caller for event in game.events),
        "event": chosen,
        "deck_json": json.dumps({str(tile): count for tile, count in deck.counts.items()}),
    }


def _table_context(
    request: HtmxRequest,
    sheet: selectors.ScoreSheet,
    *,
    post: Any = None,
    errors: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    session = sheet.session
    game = GAMES[session.game]
    return {
        "sheet": sheet,
        "session": session,
        "game": game,
        "title": _(game.label),
        "join_url": request.build_absolute_uri(reverse("table", args=[session.token])),
        "read_url": request.build_absolute_uri(reverse("shared", args=[session.read_token])),
        "number": sheet.next_number,
        "organiser": rights.organises(request, session),
        # Looked up only by the pages that show it (not by the live part's every poll).
        "group": partial(rights.group_of, request, session),
        "group_url": partial(_group_url, request, session),
        "who": partial(_who, request, session),
        "organiser_url": request.build_absolute_uri(
            reverse("organise", args=[session.token, session.organiser_token])
        ),
        # A new key for each hand entered; a failed save keeps its key, so a retry is a retry.
        "idempotency_key": (post.get("key") if post else None) or secrets.token_urlsafe(16),
        **_hand_fields(
            request,
            sheet,
            expected=(sheet.next_first, sheet.next_direction),
            post=post,
            errors=errors,
        ),
        **extra,
    }


def _who(request: HtmxRequest, session: TableSession) -> Picker:
    """Whose phone this is, chosen among the table's players ("I am Bob")."""
    return picker(request, session.seated, reverse("table_me", args=[session.token]))


def _group_url(request: HtmxRequest, session: TableSession) -> str:
    """The link of the table's group, which its Join section offers beside the table's."""
    if (group := rights.group_of(request, session)) is None:
        return ""
    return request.build_absolute_uri(reverse("group", args=[group.token]))


@require_http_methods(["GET", "HEAD", "POST"])
def table(request: HtmxRequest, token: str) -> HttpResponse:
    """The table page: its hands, totals and the form for the next hand. A phone that opens a
    group's table belongs to the group from then on."""
    if request.method == "POST":
        return _posted_before_the_split(request, token)
    session = selectors.session_by_token(token)
    rights.joined_table(request, session)
    changed = whole_number(request.GET.get("changed"))
    number = whole_number(request.GET.get("saved"))
    sheet = selectors.score_sheet(
        session, latest=True, number=number if changed is None else changed
    )
    saved = sheet.row(number) if number is not None else None
    context = _table_context(request, sheet, saved=saved, **_changed(session, sheet, changed))
    if request.htmx and request.GET.get("form"):
        return render(request, "tables/table.html#hand_form", context)
    return render(request, "tables/table.html", context)


def _posted_before_the_split(request: HtmxRequest, token: str) -> HttpResponse:
    """Pages and hands kept on a phone from before saving and previewing had addresses of
    their own posted both to the table's; they still work, so no kept hand is lost."""
    if request.POST.get("action") == "preview":
        return hand_preview(request, token)
    return hand_save(request, token)


@require_POST
def hand_save(request: HtmxRequest, token: str) -> HttpResponse:
    """Save the next hand, once however often it is sent (its idempotency key): the form
    cleans it (the engine asked once), the service stores it; else the form again with what is
    wrong, or with the hand another phone saved first."""
    session = selectors.session_by_token(token)
    form = HandForm(session, request.POST)
    if (cleaned := form.cleaned()) is None:
        return _hand_form(request, session, form)
    device = me.name(request, session.seated)
    try:
        recorded = services.hand_record(
            session=session,
            number=cleaned.number,
            data=cleaned.hand,
            checked=cleaned.checked,
            device=device,
            idempotency_key=posted_key(request.POST),
        )
    except ScoringError as error:  # what only the table's lock can tell: its next number
        form.add_scoring_error(error)
    except (services.HandAlreadyRecorded, services.KeyReused) as taken:
        return _hand_form(request, session, form, taken=taken)
    except services.TableLocked:
        return _locked(request)
    else:
        return _saved(request, session, recorded)
    return _hand_form(request, session, form)


@require_POST
def hand_preview(request: HtmxRequest, token: str) -> HttpResponse:
    """What the hand would settle, stored nowhere."""
    session = selectors.session_by_token(token)
    form = HandForm(session, request.POST, saving=False)
    checked = cleaned.checked if (cleaned := form.cleaned()) else None
    return _hand_form(request, session, form, preview=checked.played if checked else None)


def _hand_form(
    request: HtmxRequest,
    session: TableSession,
    form: HandForm,
    *,
    taken: services.HandAlreadyRecorded | services.KeyReused | None = None,
    preview: HandResult | None = None,
) -> HttpResponse:
    """The form again, as posted: with every problem its cleaning found, the preview asked
    for, or the hand another phone took. Nothing is scored here: the table is read as its
    page shows it (its latest hands), or, where the hand taken is the last, from that hand
    alone (``after_taken``), at a cost that does not grow with the hands played: when a
    table's phones all press save, all but the first are answered this way."""
    if isinstance(taken, services.HandAlreadyRecorded) and taken.last:
        sheet = selectors.after_taken(session, taken.hand)
    else:
        sheet = selectors.score_sheet(session, latest=True)
    extra: dict[str, Any] = {"preview": preview} if preview is not None else {}
    post: QueryDict = request.POST
    if taken is not None and (answer := _in_place(request, session, sheet, taken=taken.hand)):
        return answer
    if taken is not None:
        extra["taken"] = taken.hand
        # Kept as the next hand: who leads it and which way are the next hand's, not the
        # ones this phone showed for the hand another phone saved.
        post = post.copy()
        post.pop("first", None)
        post.pop("direction", None)
    context = _table_context(request, sheet, post=post, errors=form.errors, **extra)
    if request.htmx:
        return render(request, "tables/table.html#hand_form", context)
    status = 409 if taken is not None else 400 if form.errors else 200
    return render(request, "tables/table.html", context, status=status)


# Sent by the table page's own form (templates/tables/table.html, hx-headers): the page makes
# its form the next hand's itself ("ledger-next" in ledger.js), so a hand saved or taken is
# answered with its outcome alone. The offline queue, a page from before, and a browser without
# scripts are answered with the whole form.
IN_PLACE = "X-Ledger-In-Place"


def _in_place(
    request: HtmxRequest,
    session: TableSession,
    sheet: selectors.ScoreSheet,
    *,
    saved: selectors.Row | None = None,
    taken: Hand | None = None,
) -> HttpResponse | None:
    """The answer to the page's own form, where it asked for one (IN_PLACE) and the table
    takes a next hand: the outcome, out of band in place of the last one, and the next hand's
    number, leader and direction for the form, which keeps what was typed (``taken``: another
    phone saved that hand first) or is cleared, under a new key (``saved``). A few lines rather
    than the form: when a table's phones all press save, each is answered so. None: the
    whole form is the answer (the page did not ask, or the form gives way to a notice that
    the table is locked or the game over)."""
    over = sheet.end is not None and sheet.end.over
    if not request.headers.get(IN_PLACE) or session.locked or over:
        return None
    following: dict[str, Any] = {
        "number": sheet.next_number,
        "first": sheet.next_first,
        "direction": sheet.next_direction,
    }
    if saved is not None:
        following["clear"] = True  # a new hand, under a key of its own
    context = {"sheet": sheet, "saved": saved, "taken": taken, "in_place": True, **following}
    response = render(request, "tables/table.html#outcome", context)
    response["HX-Reswap"] = "none"
    return _trigger(response, "ledger-next", following)


def _trigger(response: HttpResponse, event: str, detail: object = True) -> HttpResponse:
    """``event`` added to the events htmx fires on the page when the answer comes."""
    events = json.loads(response.get("HX-Trigger") or "{}")
    response["HX-Trigger"] = json.dumps({**events, event: detail})
    return response


def _changed(
    session: TableSession, sheet: selectors.ScoreSheet, number: int | None
) -> dict[str, Any]:
    """After hand ``number`` was corrected or voided (``?changed=N``): the change, and the
    hand now."""
    row = sheet.row(number) if number is not None else None
    found = selectors.changes(session, number) if row is not None else []
    return {"changed": found[-1], "changed_row": row} if found else {}


def _saved(
    request: HtmxRequest, session: TableSession, recorded: services.Recorded
) -> HttpResponse:
    """The answer to a save: the table's page, the next hand's form, or (the page's own
    form) the outcome in place."""
    number = recorded.hand.number
    if not request.htmx:
        url = reverse("table", args=[session.token])
        response: HttpResponse = redirect(f"{url}?saved={number}")
    else:
        sheet = selectors.after_record(
            session, recorded.hand, recorded.played, recorded.why, recorded.end
        )
        saved = sheet.row(number)
        response = _in_place(request, session, sheet, saved=saved) or render(
            request, "tables/table.html#hand_form", _table_context(request, sheet, saved=saved)
        )
        _trigger(response, "ledger-changed")
    return response


@require_safe
def live(request: HtmxRequest, token: str) -> HttpResponse:
    """The live part of the table page (ledger.tables.live), or 204 when nothing changed
    since ``rev``: what a phone fetches when it polls, or when its stream does not carry it."""
    revision = selectors.revision(token)
    if revision is None:
        raise NoSuchLink("No such table")
    if request.GET.get("rev") == str(revision):
        return HttpResponse(status=204)
    return HttpResponse(live_part(token, revision, get_language()))


@require_http_methods(["GET", "HEAD", "POST"])
def hand_detail(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    """A past hand: shown, or corrected (POST) by any player at the table."""

    def correct(session: TableSession, form: HandForm, version: int, device: str) -> bool:
        data = form.data()
        if data is None or form.errors:
            return False
        services.hand_correct(
            session=session, number=number, data=data, version=version, device=device
        )
        return True

    return _change_hand(request, token, number, correct)


@require_POST
def hand_void(request: HtmxRequest, token: str, number: int) -> HttpResponse:
    """The organiser voids a past hand: it stays in the history and counts for nothing. Asked
    once first (``confirm``): a void is final."""
    if request.POST.get("confirm") != "1" and (asked := _void_asked(request, token, number)):
        return asked

    def void(session: TableSession, form: HandForm, version: int, device: str) -> bool:
        services.hand_void(session=session, number=number, version=version, device=device)
        return True

    return _change_hand(request, token, number, void, organiser_only=True)


def _void_asked(request: HtmxRequest, token: str, number: int) -> HttpResponse | None:
    """The page that asks before a void, changing nothing; its button posts the void again,
    with confirm=1, the hand's version and this phone's name. None for a hand voided already:
    there is nothing to ask, and the void is refused as ever."""
    session = selectors.session_by_token(token)
    if not rights.organises(request, session):
        return HttpResponseForbidden(_("Only the table's organiser can void a hand."))
    sheet = selectors.score_sheet(session, latest=True, number=number)
    row = sheet.row(number)
    if row is None:
        raise Http404("No such hand")
    if row.hand.voided:
        return None
    context = {
        "kind": "void",
        "session": session,
        "sheet": sheet,
        "row": row,
        "title": _(GAMES[session.game].label),
        "version": request.POST.get("version", ""),
    }
    return render(request, "tables/confirm.html", context)


HandChanger = Callable[[TableSession, HandForm, int, str], bool]


def _change_hand(
    request: HtmxRequest,
    token: str,
    number: int,
    change: HandChanger,
    *,
    organiser_only: bool = False,
) -> HttpResponse:
    """The hand page; on POST, ``change`` made (it says whether it was), then back to the table."""
    session = selectors.session_by_token(token)
    sheet = selectors.score_sheet(session, latest=True, number=number)
    row = sheet.row(number)
    if row is None:
        raise Http404("No such hand")
    errors: dict[str, str] = {}
    conflict = None
    voided = False  # before: a conflict with what is stored (409), as the API says it
    post = None
    if request.method == "POST":
        if organiser_only and not rights.organises(request, session):
            return HttpResponseForbidden(_("Only the table's organiser can void a hand."))
        post = request.POST
        form = HandForm(session, request.POST)
        try:
            version = whole_number(request.POST.get("version")) or 0
            if change(session, form, version, me.name(request, session.seated)):
                url = reverse("table", args=[token])
                return redirect(f"{url}?changed={number}#hand-form")
        except ScoringError as error:
            form.add_scoring_error(error)
        except services.TableLocked:
            return _locked(request)
        except services.HandVoided:
            voided = True
            errors = {"__all__": _("This hand is voided: it can no longer be changed.")}
        except services.StaleVersion as stale:
            conflict = stale.hand
            post = None  # show the hand as it is now
            row = selectors.Row(selectors.StoredHand.of(stale.hand), row.result)
        errors = errors or form.errors
    context = {
        "sheet": sheet,
        "session": session,
        "row": row,
        "title": _(GAMES[session.game].label),
        "conflict": conflict,
        "organiser": rights.organises(request, session),
        "changes": selectors.changes(session, number),
        **_hand_fields(
            request,
            sheet,
            expected=(sheet.next_first, "ccw"),
            data=row.hand.data,
            post=post,
            errors=errors,
        ),
    }
    status = 409 if conflict or voided else 400 if errors else 200
    return render(request, "tables/hand_detail.html", context, status=status)


@require_POST
def again(request: HtmxRequest, token: str) -> HttpResponse:
    """A lone table played again: the same players in their seats, game and options, a new
    table; a double tap starts one (its key). Only its players' link has this address: the
    read-only link starts nothing."""
    session = selectors.session_by_token(token)
    owner = request.user if request.user.is_authenticated else None
    try:
        new = services.table_again(
            table=session,
            owner=owner,
            idempotency_key=posted_key(request.POST),
            sender=rights.sender(request, request.user),
        )
    except services.NotLone as refused:
        return _refused(refused.message, 409)
    except services.StartKeyReused:
        return _refused(str(START_KEY_REUSED), 409)
    rights.grant_table(request, new)
    return redirect("table", token=new.token)


def _refused(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


@require_safe
def organise(request: HtmxRequest, token: str, organiser_token: str) -> HttpResponse:
    """The organiser's link: this browser gets the organiser's rights on the table."""
    session = selectors.session_by_token(token)
    if not secrets.compare_digest(organiser_token, session.organiser_token):
        raise NoSuchLink("No such table")
    if not rights.organises(request, session):
        rights.grant_table(request, session)
    return redirect("table", token=token)


@require_POST
def lock(request: HtmxRequest, token: str) -> HttpResponse:
    session = selectors.session_by_token(token)
    if not rights.organises(request, session):
        return HttpResponseForbidden(_("Only the table's organiser can lock it."))
    services.table_lock(session=session, locked=request.POST.get("locked") == "1")
    return redirect("table", token=token)


@require_POST
def remove(request: HtmxRequest, token: str) -> HttpResponse:
    """The organiser removes a table with no hands (a stray *Play again*), asked once first
    (``confirm``); one with hands, or a tournament's, is kept, and the page says why."""
    session = selectors.session_by_token(token)
    if not rights.organises(request, session):
        return HttpResponseForbidden(_("Only the table's organiser can remove it."))
    if request.POST.get("confirm") != "1":
        context = {"kind": "remove", "session": session, "title": _(GAMES[session.game].label)}
        return render(request, "tables/confirm.html", context)
    group = rights.group_of(request, session)  # back to the group, where this phone knows it
    try:
        services.table_remove(session=session)
    except services.Kept as kept:
        return _refused(kept.message, 409)
    back = reverse("group", args=[group.token]) if group else reverse("home")
    # The phone forgets the table in its list of tables (ledger.js, "#forgotten=").
    return redirect(f"{back}#forgotten={reverse('table', args=[token])}")


@require_POST
def ends(request: HtmxRequest, token: str) -> HttpResponse:
    """The organiser sets where the game ends: raises the target to play on, say."""
    session = selectors.session_by_token(token)
    if not rights.organises(request, session):
        return HttpResponseForbidden(_("Only the table's organiser can change where it ends."))
    values = {name: request.POST.get(name, "").strip() or None for name in ENDS}
    time = TimeFields(request.POST)
    if time.is_valid():
        ends_at = time.ends_at(clock.zone(session.time_zone), kept=session.ends_at)
        try:
            services.table_ends(
                session=session, **values, ends_at=ends_at, device=me.name(request, session.seated)
            )
        except services.TableLocked:
            return _locked(request)
        except ScoringError as error:
            ends_error = engine_message(error)
        else:
            return redirect(reverse("table", args=[token]) + "#organiser")
    else:
        ends_error = " ".join(str(message) for errors in time.errors.values() for message in errors)
    sheet = selectors.score_sheet(session, latest=True)
    context = _table_context(request, sheet, ends_error=ends_error, ends=values, time_form=time)
    return render(request, "tables/table.html", context, status=400)


@require_safe
def history(request: HtmxRequest, token: str) -> HttpResponse:
    session = selectors.session_by_token(token)
    page = selectors.changes_page(session, request.GET.get("page"), HISTORY_PAGE)
    context = {"session": session, "page": page, "title": _(GAMES[session.game].label)}
    return render(request, "tables/history.html", context)


HISTORY_PAGE = 50  # changes on one page of a table's history


def _summary(request: HtmxRequest, session: TableSession, *, shared: bool) -> HttpResponse:
    sheet = selectors.score_sheet(session)
    context = {
        "session": session,
        "sheet": sheet,
        "summary": summarise(sheet),
        "game": GAMES[session.game],
        "title": _(GAMES[session.game].label),
        "shared": shared,
        "organiser": not shared and rights.organises(request, session),
        "token": session.read_token if shared else session.token,
    }
    return render(request, "tables/summary.html", context)


@require_safe
def summary(request: HtmxRequest, token: str) -> HttpResponse:
    return _summary(request, selectors.session_by_token(token), shared=False)


@require_safe
def shared(request: HtmxRequest, token: str) -> HttpResponse:
    return _summary(request, selectors.session_by_read_token(token), shared=True)


@require_safe
def export(request: HtmxRequest, token: str, kind: str) -> HttpResponseBase:
    return exports.response(selectors.session_by_token(token), kind, words=True)


@require_safe
def shared_export(request: HtmxRequest, token: str, kind: str) -> HttpResponseBase:
    return exports.response(selectors.session_by_read_token(token), kind, words=True)


@require_safe
def qr(request: HtmxRequest, token: str) -> HttpResponse:
    """The join link as a QR code, drawn here as SVG: nothing is fetched from elsewhere."""
    session = selectors.session_by_token(token)
    url = request.build_absolute_uri(reverse("table", args=[session.token]))
    svg = io.BytesIO()
    # As a file of its own (an <img>), an SVG needs its namespace; svg_inline() leaves it out.
    segno.make(url, error="m").save(svg, kind="svg", scale=6, border=2, xmldecl=False)
    return HttpResponse(svg.getvalue(), content_type="image/svg+xml")
