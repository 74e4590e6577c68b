"""A group's pages: start one (/groups/new/), its page /g/<token>/ with its tables, running
ledger and payments, a player's account, and the organiser's link.

Thin views: parse the request, call one service or selector, render.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from functools import partial
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseBase, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ledger.groups import exports, selectors, services, stats
from ledger.groups.forms import GroupForm, PaymentForm, PeriodForm, SettingsForm, TableForm
from ledger.groups.models import Group, GroupChange, Payment
from ledger.links import NoSuchLink
from ledger.models import HandChange, Player, TableSession
from ledger.players.views import picker
from ledger.tables import selectors as table_selectors
from ledger.tables import services as table_services
from ledger.tables.forms import MAX_PLAYERS
from ledger.tables.stakes import stake_line
from ledger.tables.summary import Chart, Step, draw
from ledger.web import me, rights, share
from ledger.web.forms import START_KEY_REUSED, engine_message, posted_key
from ledger.web.games import game_choices, option_fields
from ledger.web.views import HtmxRequest, unchanged
from scoring import GAMES, ScoringError, Transfer
from scoring.games import DEFAULT_TABLE_GAME


@require_http_methods(["GET", "HEAD", "POST"])
def group_new(request: HtmxRequest) -> HttpResponse:
    form = GroupForm(request.POST or None, initial={"game": DEFAULT_TABLE_GAME})
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(
                name=form.cleaned_data["name"],
                game=form.cleaned_data["game"],
                options=form.options(),
            )
        except services.Refused as refused:
            form.add_error("name", refused.message)
        except ScoringError as error:
            form.add_scoring_error(error)
        else:
            rights.grant_group(request, group)
            rights.saw_group(request, group)
            return redirect("group", token=group.token)
    context = {"form": form, "option_rows": [(f, form[f.name]) for f in option_fields()]}
    return render(request, "groups/group_new.html", context, status=400 if form.errors else 200)


def _page(
    request: HtmxRequest,
    group: Group,
    *,
    status: int = 200,
    table_form: TableForm | None = None,
    table_key: str = "",
    payment_form: PaymentForm | None = None,
    template: str = "groups/group.html",
    **extra: Any,
) -> HttpResponse:
    mark = selectors.mark(group)  # before what it marks: never newer than the page
    if same := unchanged(request, mark):  # a fetch of the live parts, which show it still
        return same
    ledger = selectors.ledger(group)
    organiser = rights.organises_group(request, group)
    # One amount of money: the money tables, the chip tables at their chips' values, payments.
    units = [("money", ledger.money, ledger.settle_up())] if ledger.pays else []
    payments = group.payments.select_related("payer", "payee", "void").order_by("-created", "-pk")
    table_form = table_form or _table_form(ledger, group)
    context = {
        "group": group,
        "mark": mark,
        "title": group.name,
        "ledger": ledger,
        "latest": ledger.tables[:LATEST],
        "units": units,
        # Looked up only where the page shows it: not for a fetch of the live parts alone.
        "share_text": partial(_share_text, request, group, ledger, units),
        # Points-only tables are counted apart (nothing is owed for them), which the page says.
        "points_tables": any(line.unit == "points" for line in ledger.tables),
        "points": _points(ledger.points),
        "payments": payments[:LATEST],
        "payments_count": payments.count() if ledger.players else 0,
        "organiser": organiser,
        "join_url": request.build_absolute_uri(reverse("group", args=[group.token])),
        "organiser_url": request.build_absolute_uri(
            reverse("group_organise", args=[group.token, group.organiser_token])
        ),
        "game_title": _(GAMES[group.game].label),
        "usual_options": selectors.table_options(group, group.game),
        # The latest correction or void at its tables, told once on every phone of the group.
        "told": partial(_told, group, ledger),
        # What a new table plays for at each game: the form shows the chosen game's.
        "plays_for": partial(_plays_for, group),
        "games": game_choices(),
        "table_form": table_form,
        "player_fields": [table_form[f"player_{i}"] for i in range(MAX_PLAYERS)],
        "seat_choices": table_form.seat_choices(),
        **_evening(ledger),
        "table_key": table_key or secrets.token_urlsafe(16),
        "payment_form": payment_form or PaymentForm(initial={"unit": "money"}),
        "chip_values": selectors.chip_values(group, ledger.tables),
        # A key of its own for every form shown: one sent back refused stored nothing, and one
        # refused as used for another payment would be refused again.
        "payment_key": secrets.token_urlsafe(16),
        # Whose phone this is ("I am Bob"): the balances, settle-up and tonight speak to them.
        "me": me.mine(request, ledger.ids.values()),
        "who": partial(
            picker,
            request,
            {pk: name for name, pk in ledger.ids.items()},
            reverse("group_me", args=[group.token]),
        ),
        **extra,
    }
    return render(request, template, context, status=status)


def _told(group: Group, ledger: selectors.Ledger) -> table_selectors.Told | None:
    """The latest correction or void at the group's tables, its totals as the ledger has them."""
    change = table_selectors.latest_change(HandChange.objects.filter(hand__session__group=group))
    line = next(
        (line for line in ledger.tables if change and line.pk == change.hand.session_id), None
    )
    if change is None or line is None:
        return None
    names = {pk: name for name, pk in ledger.ids.items()}
    return table_selectors.told(change, names, line.net, line.unit == "points")


def _evening(ledger: selectors.Ledger) -> dict[str, Any]:
    """The last evening, whether it is tonight, and who is up or down over it."""
    evening = ledger.last_evening()
    return {
        "last_evening": evening,
        "tonight": selectors.is_tonight(evening),
        "evening_money": ledger.evening_money(evening) if ledger.pays else [],
    }


def _plays_for(group: Group) -> list[tuple[str, str]]:
    """Each game's line of what a new table of it in the group plays for."""
    return [(game, stake_line(game, selectors.table_options(group, game))) for game in GAMES]


def _table_form(ledger: selectors.Ledger, group: Group) -> TableForm:
    """A new table as the group plays: its usual game, the last table's players in their seats."""
    last = ledger.tables[0].seating if ledger.tables else []
    return TableForm(
        players={pk: name for name, pk in ledger.ids.items()},
        initial={"game": group.game, "first": "draw", "seat": [ledger.ids[n] for n in last]},
    )


def _share_text(
    request: HtmxRequest,
    group: Group,
    ledger: selectors.Ledger,
    units: list[tuple[str, dict[str, Decimal], tuple[Transfer, ...]]],
) -> str:
    """What Share sends from the group's page: its last evening and where everyone stands."""
    tables = [
        (
            _(GAMES[line.game].label),
            line.hands,
            # In money, as the balances below: a chip table's chips at its chip's value.
            line.money if line.unit == "chips" else line.net,
            line.unit == "points",
            request.build_absolute_uri(reverse("shared", args=[read_token])),
        )
        for line, read_token in reversed(selectors.evening(group, ledger))
    ]
    return share.evening_text(group.name, tables, units)


def _points(points: dict[str, dict[str, int]]) -> list[tuple[str, str, bool, dict[str, int]]]:
    """Each game's points as a page shows them: its key, its name in the page's language,
    whether the highest total wins it, and each player's points there."""
    return [
        (game, _(GAMES[game].label), GAMES[game].higher_wins, scores)
        for game, scores in points.items()
    ]


LATEST = 10  # tables and payments listed on the group's page; all of them on pages of their own
PAGE = 50


@require_safe
def tables(request: HtmxRequest, token: str) -> HttpResponse:
    """Every table of the group, the latest first, a page at a time."""
    found = selectors.group_by_token(token)
    page = Paginator(selectors.ledger(found).tables, PAGE).get_page(request.GET.get("page"))
    context = {"group": found, "title": found.name, "page": page}
    return render(request, "groups/group_tables.html", context)


@require_safe
def payments(request: HtmxRequest, token: str) -> HttpResponse:
    """Every payment of the group, voided ones too, the latest first, a page at a time."""
    found = selectors.group_by_token(token)
    every = found.payments.select_related("payer", "payee", "void").order_by("-created", "-pk")
    page = Paginator(every, PAGE).get_page(request.GET.get("page"))
    context = {"group": found, "title": found.name, "page": page}
    return render(request, "groups/group_payments.html", context)


@require_safe
def group(request: HtmxRequest, token: str) -> HttpResponse:
    """The group's page; for htmx, its live parts (its latest tables, the balances)."""
    found = selectors.group_by_token(token)
    if request.htmx:
        return _page(request, found, template="groups/group.html#live")
    rights.saw_group(request, found)
    return _page(request, found)


@require_safe
def group_organise(request: HtmxRequest, token: str, organiser_token: str) -> HttpResponse:
    """The organiser's link: this browser gets the organiser's rights on the group."""
    found = selectors.group_by_token(token)
    if not secrets.compare_digest(organiser_token, found.organiser_token):
        raise NoSuchLink("No such group")
    rights.grant_group(request, found)
    return redirect("group", token=token)


@require_http_methods(["GET", "HEAD", "POST"])
def group_settings(request: HtmxRequest, token: str) -> HttpResponse:
    """The organiser's page of the group's settings: its name, usual game and what it plays
    for, and every change of them, who made it and when."""
    found = selectors.group_by_token(token)
    if not rights.organises_group(request, found):
        return HttpResponseForbidden(_("Only the group's organiser changes its settings."))
    form = SettingsForm(request.POST or None, group=found)
    if request.method == "POST" and form.is_valid():
        try:
            services.group_settle(
                group=found, settings=form.settings(), device=_who_acts(request, found)
            )
        except services.Refused as refused:
            form.add_error("name", refused.message)
        except services.SettingsRefused as refused:
            form.add_error(refused.field, engine_message(refused.error))
        except ScoringError as error:  # a name with characters that hide what it says
            form.add_error("name", engine_message(error))
        else:
            return redirect(reverse("group_settings", args=[token]) + "?saved=1")
    context = {
        "group": found,
        "title": found.name,
        "form": form,
        "saved": request.GET.get("saved") == "1" and not form.errors,
        "history": [
            (change, _changed_lines(change)) for change in found.changes.order_by("-at", "-pk")
        ],
    }
    return render(
        request, "groups/group_settings.html", context, status=400 if form.errors else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
def evening_close(request: HtmxRequest, token: str) -> HttpResponse:
    """The organiser closes the last evening: what the ledger found at its tables first (one
    left open, a gap in its hands' numbers, one that ended short of its end), then, once
    closed (its open tables locked), the recap: its tables, who won it, the settle-up, Share
    and the CSV."""
    found = selectors.group_by_token(token)
    if not rights.organises_group(request, found):
        return HttpResponseForbidden(_("Only the group's organiser closes the evening."))
    ledger = selectors.ledger(found)
    evening = ledger.last_evening()
    if request.method == "POST":
        tables = list(TableSession.objects.filter(pk__in=[line.pk for line in evening]))
        services.evening_close(tables=tables)
        return redirect(reverse("evening_close", args=[token]) + "?closed=1")
    units = [("money", ledger.money, ledger.settle_up())] if ledger.pays else []
    context = {
        "group": found,
        "title": found.name,
        "ledger": ledger,
        "evening": evening,
        "findings": selectors.evening_findings(evening),
        "closed": request.GET.get("closed") == "1",
        **_evening(ledger),
        "units": units,
        "share_text": partial(_share_text, request, found, ledger, units),
    }
    return render(request, "groups/group_evening.html", context)


def _changed_lines(change: GroupChange) -> list[tuple[str, str, str]]:
    """What a change of the settings changed, each as (what, before, after), in the page's
    language (a game that plays for what the group plays for: "as the group")."""
    usual = _("as the group")

    def said(settings: dict[str, Any]) -> dict[str, str]:
        plays_for = settings["plays_for"]
        games = plays_for.get("games", {})
        return {
            _("Name"): settings["name"],
            _("Usual game"): _(GAMES[settings["game"]].label),
            _("A point's stake"): plays_for.get("stake", "1"),
            _("A chip's value"): plays_for.get("chip", "1"),
            **{
                _(GAMES[game].label): next(iter(games.get(game, {}).values()), usual)
                for game in GAMES
            },
        }

    before, after = said(change.before), said(change.after)
    return [(what, before[what], after[what]) for what in after if before[what] != after[what]]


@require_POST
def table_new(request: HtmxRequest, token: str) -> HttpResponse:
    """Start a table of the group: its players (new names join the group)."""
    found = selectors.group_by_token(token)
    form = TableForm(request.POST, players=selectors.players(found))
    key = posted_key(request.POST)  # kept when the form comes back: a retry is a retry
    if request.POST.get("paid") and not rights.organises_group(request, found):
        return HttpResponseForbidden(
            _("Only the group's organiser changes what a table plays for.")
        )
    if form.is_valid():
        try:
            table = services.table_start(
                group=found,
                seating=form.seating(),
                first=form.leader(),
                game=form.cleaned_data["game"],
                paid=form.cleaned_data["paid"],
                idempotency_key=key,
                sender=rights.sender(request, request.user),
                # The lots not drawn yet, the same for every send, in this group: its key sent
                # to another group (the same browser's) starts nothing there.
                asked={"group": found.pk, "form": form.cleaned_data},
            )
        except ScoringError as error:
            for problem in error.errors:
                form.add_error(None, engine_message(problem))
        except table_services.StartKeyReused:
            form.add_error(None, START_KEY_REUSED)
            key = ""
        else:
            return _opened(request, found, table)
    return _page(request, found, status=400, table_form=form, table_key=key)


def _opened(request: HtmxRequest, found: Group, table: TableSession) -> HttpResponse:
    """To the new table; the group's organiser is its organiser too (``rights.organises``)."""
    if not rights.organises_group(request, found):
        rights.grant_table(request, table)
    return redirect("table", token=table.token)


@require_POST
def play_again(request: HtmxRequest, token: str, table: int) -> HttpResponse:
    """The same players, game and options in one tap: the seats as they were, or drawn."""
    found = selectors.group_by_token(token)
    before = get_object_or_404(TableSession, pk=table, group=found)
    try:
        again = services.play_again(
            table=before,
            draw=request.POST.get("seats") == "draw",
            idempotency_key=posted_key(request.POST),  # a double tap starts one table
            sender=rights.sender(request, request.user),
        )
    except table_services.StartKeyReused:
        return _page(request, found, status=409, again_error=START_KEY_REUSED)
    return _opened(request, found, again)


@require_POST
def group_from_table(request: HtmxRequest, token: str) -> HttpResponse:
    """A group of a lone table's players, the table its first table: to the group's page, this
    browser its organiser, as a group started from /groups/new/. Only the table's organiser
    may: the group's organiser organises its tables, and a player's link gives no such right."""
    table = table_selectors.session_by_token(token)
    if not rights.organises(request, table):
        return HttpResponseForbidden(_("Only the table's organiser can start a group from it."))
    try:
        group = services.group_from_table(table=table, name=request.POST.get("name", ""))
    except table_services.NotLone as refused:
        return _refused(refused.message, 409)
    except services.Refused as refused:
        return _refused(refused.message, 400)
    except ScoringError as error:
        return _refused(engine_message(error), 400)
    rights.grant_group(request, group)
    rights.saw_group(request, group)
    return redirect("group", token=group.token)


def _who_acts(request: HtmxRequest, group: Group) -> str:
    """Who this phone says it is in the group ("I am Bob"), as a change records it."""
    return me.name(request, group.players.values_list("pk", flat=True))


def _refused(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


@require_POST
def payment_new(request: HtmxRequest, token: str) -> HttpResponse:
    found = selectors.group_by_token(token)
    form = PaymentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            recorded = services.payment_record(
                group=found,
                payer=data["payer"],
                payee=data["payee"],
                amount=data["amount"],
                unit=data["unit"],
                chip=data["chip"] if data["unit"] == Payment.Unit.CHIPS else None,
                note=data["note"],
                device=_who_acts(request, found),
                idempotency_key=data["key"],
            )
        except services.Refused as refused:
            field = {"from": "payer", "to": "payee"}.get(refused.field, refused.field)
            form.add_error(field if field in form.fields else None, refused.message)
        except services.KeyReused:
            form.add_error(
                None, _("This form was already used for another payment: nothing was saved.")
            )
        except ScoringError as error:  # a note the engine's text rules refuse
            form.add_error("note", engine_message(error))
        else:
            url = reverse("group", args=[found.token])
            return redirect(f"{url}?paid={recorded.payment.pk}#payments")
    return _page(request, found, status=400, payment_form=form)


@require_POST
def payment_void(request: HtmxRequest, token: str, payment: int) -> HttpResponse:
    """The organiser voids a payment: it stays on record and moves nothing; this phone's name
    and the reason given say who voided it and why."""
    found = selectors.group_by_token(token)
    if not rights.organises_group(request, found):
        return HttpResponseForbidden(_("Only the group's organiser can void a payment."))
    chosen = get_object_or_404(Payment, pk=payment, group=found)
    try:
        services.payment_void(
            payment=chosen,
            device=_who_acts(request, found),
            reason=str(request.POST.get("reason", "")),
        )
    except services.AlreadyVoided as refused:
        return _page(request, found, status=409, void_error=refused.message)
    except ScoringError as error:  # a reason or name with characters that hide what it says
        return _page(request, found, status=400, void_error=engine_message(error))
    return redirect(reverse("group", args=[found.token]) + "#payments")


@require_safe
def moved_on(request: HtmxRequest, token: str, table: int) -> HttpResponse:
    """Where the group went on from one of its tables: the notice its page shows, on a phone
    that opened the group's link, when the group's stream says something changed (ledger.js)."""
    found = selectors.group_by_token(token)
    context = {"group": found, "table": table, "newer": selectors.moved_on(found, table)}
    return render(request, "groups/_moved_on.html", context)


@require_safe
def player(request: HtmxRequest, token: str, player: int) -> HttpResponse:
    """One player's account in the group: every table and payment behind their balance."""
    found = selectors.group_by_token(token)
    person = get_object_or_404(Player, pk=player, group=found)
    ledger = selectors.ledger(found)
    tables = [line for line in ledger.tables if person.name in line.seating]
    hands = selectors.account_hands(found, person)
    context = {
        "group": found,
        "title": person.name,
        "person": person,
        "ledger": ledger,
        "tables": tables,
        # By evening, each with what it came to for them in money, each table with its hands.
        "evenings": [
            (
                evening,
                dict(ledger.evening_money(evening)).get(person.name, Decimal(0)),
                [(line, hands.get(line.pk, [])) for line in evening],
            )
            for evening in selectors.evenings(tables)
        ],
        "payments": selectors.account_payments(found, person),
        # The settle-up's lines this balance is in: what it comes to, paid or received.
        "settle_up": [t for t in ledger.settle_up() if person.name in (t.payer, t.payee)],
        "points": [
            (game, title, higher, scores[person.name])
            for game, title, higher, scores in _points(ledger.points)
            if person.name in scores
        ],
    }
    return render(request, "groups/group_player.html", context)


@require_safe
def statistics(request: HtmxRequest, token: str) -> HttpResponse:
    """Every player's statistics for a period, the money they won day by day, their ratings,
    and two players head to head."""
    found = selectors.group_by_token(token)
    form = PeriodForm(request.GET or None, initial={"period": PeriodForm.ALL})
    start = end = None
    if form.is_bound and form.is_valid():
        start, end = form.dates(timezone.localdate())
    players = selectors.players(found)
    played = stats.player_stats(found, start=start, end=end)
    pair, a, b = None, None, None
    if form.is_bound and not form.errors:
        a, b = form.cleaned_data.get("a"), form.cleaned_data.get("b")
        if a in players and b in players and a != b:
            pair = stats.head_to_head(
                found,
                Player.objects.get(pk=a),
                Player.objects.get(pk=b),
                start=start,
                end=end,
            )
    context = {
        "group": found,
        "title": _("Statistics"),
        "form": form,
        "players": sorted(players.items(), key=lambda item: item[1].casefold()),
        "ranked": stats.ranked(played),
        "chart": _money_chart(played),
        "ratings": stats.ratings(found),
        "pair": pair,
        "sides": [pair.a, pair.b] if pair else [],
        "same": a is not None and a == b,
        "period": (start, end),
    }
    # Compare asks with htmx for its answer alone; the period's errors show on the whole page.
    template = "groups/group_statistics.html"
    if request.htmx and not form.errors:
        template += "#pair"
    return render(request, template, context, status=400 if form.errors else 200)


def _money_chart(played: list[stats.PlayerStats]) -> Chart | None:
    """What each player won at money tables, running day by day (from 0 before the first)."""
    days = sorted({day for one in played for day, _ in one.money_over_time})
    if not days:
        return None
    running = {}
    for one in played:
        if not one.money_over_time:
            continue
        by_day = dict(one.money_over_time)
        series, total = [Decimal(0)], Decimal(0)
        for day in days:
            total = by_day.get(day, total)
            series.append(total)
        running[one.name] = series
    # Month/day on the axis, short enough for a phone; the whole date where a day is named.
    steps = [Step(f"{day.month}/{day.day}", date_format(day, "DATE_FORMAT")) for day in days]
    return draw(running, steps, signed=True, x_title=_("Day"), heading="{n}")


@require_safe
def export(request: HtmxRequest, token: str, kind: str) -> HttpResponseBase:
    return exports.response(selectors.group_by_token(token), kind, words=True)
