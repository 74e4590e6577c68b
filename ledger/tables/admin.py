"""A table in the admin: nothing of its money changed around its services. Hands, their
changes and result rows are read only; a hand is corrected (a form here) or voided (an action
on their list) through the same services the pages and the API call, so each keeps its
history. A table's game, options and seats change here only until its first hand; a table
with hands is kept."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.tables import services
from ledger.tables.models import Hand, HandChange, Result, Seat, TableChange, TableSession
from ledger.web.admin import KeepsMoney, ReadOnly, TabularInline
from ledger.web.forms import engine_message
from scoring import ScoringError


def _has_hands(table: TableSession | None) -> bool:
    return table is not None and table.pk is not None and table.hands.exists()


def _table(obj: Model | None) -> TableSession | None:
    return obj if isinstance(obj, TableSession) else None


class SeatInline(TabularInline[Seat, TableSession]):
    """A table's seats, changed here only until its first hand: after it they decide who paid
    whom in every hand, which only a correction through the services changes."""

    model = Seat
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: TableSession | None = None) -> bool:
        return not _has_hands(obj) and super().has_add_permission(request, obj)

    # An inline is asked with its parent (InlineModelAdmin), which django-stubs types as the
    # inline's own model: it takes any model, and is given its table.
    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        table = _table(obj)
        return not _has_hands(table) and super().has_change_permission(request, table)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        table = _table(obj)
        return not _has_hands(table) and super().has_delete_permission(request, table)


class HandChangeInline(TabularInline[HandChange, Hand]):
    model = HandChange
    extra = 0
    readonly_fields = ["kind", "before", "after", "device", "at"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Hand | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # asked with its parent, as above


# What a table's hands pay by: read only once it has hands.
PAYS_BY = ["game", "options", "leader", "ends_at", "time_zone", "round", "table_number", "group"]


@admin.register(TableSession)
class TableSessionAdmin(KeepsMoney[TableSession]):
    """A table is started on the pages or through the API (services.session_create), not here;
    here it is locked or opened, and, until its first hand, its game, options and seats set."""

    list_display = ["__str__", "game", "leader", "created", "revision"]
    list_filter = ["game"]
    list_select_related = ["leader"]
    raw_id_fields = ["leader"]
    readonly_fields = ["token", "read_token", "revision"]
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_readonly_fields(
        self, request: HttpRequest, obj: TableSession | None = None
    ) -> list[str]:
        return [*self.readonly_fields, *(PAYS_BY if _has_hands(obj) else [])]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)  # the seats, then the tally
        services.table_recount(session=form.instance)

    def why_kept(self, obj: TableSession) -> str | None:
        return services.why_table_kept(obj)

    def delete(self, obj: TableSession) -> None:
        services.table_delete(session=obj)


class CorrectionForm(forms.Form):
    hand = forms.JSONField(
        label=gettext_lazy("The hand, its players by name"),
        widget=forms.Textarea(attrs={"rows": 16, "cols": 80}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)


# What the services refuse a hand's correction or void with.
REFUSED = (ScoringError, services.TableLocked, services.HandVoided, services.StaleVersion)


def _why(refused: Exception) -> str:
    """Why the services refused a hand's correction or void, in the reader's language."""
    if isinstance(refused, ScoringError):
        return engine_message(refused)
    if isinstance(refused, services.TableLocked):
        return _("This table is locked by its organiser: nothing was saved.")
    if isinstance(refused, services.HandVoided):
        return _("This hand is voided: it can no longer be changed.")
    return _("This hand was changed meanwhile: look again.")  # StaleVersion


def _admin_device(request: HttpRequest) -> str:
    """What a change made here records as its device: the admin, and who."""
    return f"admin: {request.user.get_username()}"[:40]


@admin.register(Hand)
class HandAdmin(ReadOnly[Hand]):
    """Read only: a hand is corrected on its own form here (``correct_view``), or voided
    with the action, through the services: each writes its change and its result rows."""

    list_display = ["__str__", "number", "voided", "version", "device", "created"]
    list_filter = ["voided"]
    list_select_related = ["session"]
    inlines = [HandChangeInline]
    actions = ["void_selected"]
    change_form_template = "admin/ledger/hand/change_form.html"

    def has_amend_permission(self, request: HttpRequest) -> bool:
        """May correct or void hands here: the admin's right to change one."""
        return request.user.has_perm("ledger.change_hand")

    @admin.action(permissions=["amend"], description=gettext_lazy("Void selected hands"))
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Hand]) -> None:
        for hand in queryset.select_related("session").order_by("session_id", "-number"):
            try:
                services.hand_void(
                    session=hand.session,
                    number=hand.number,
                    version=hand.version,
                    device=_admin_device(request),
                )
            except REFUSED as refused:
                message = _("Hand {number} of {table}: {reason}")
                said = message.format(number=hand.number, table=hand.session, reason=_why(refused))
                self.message_user(request, said, messages.ERROR)
            else:
                message = _("Hand {number} of {table} voided.")
                self.message_user(request, message.format(number=hand.number, table=hand.session))

    def get_urls(self) -> list[URLPattern]:
        correct = path(
            "<path:object_id>/correct/",
            self.admin_site.admin_view(self.correct_view),
            name="ledger_hand_correct",
        )
        return [correct, *super().get_urls()]

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A hand corrected as the table's page corrects one (services.hand_correct): the hand
        as the engine reads it, its players by name, to change and save."""
        if not self.has_amend_permission(request):
            raise PermissionDenied
        hand = get_object_or_404(Hand.objects.select_related("session"), pk=unquote(object_id))
        shown = {key: value for key, value in hand.named.items() if key != "last"}
        form = CorrectionForm(initial={"hand": shown, "version": hand.version})
        if request.method == "POST":
            form = CorrectionForm(request.POST)
            if form.is_valid() and (saved := self._correct(request, hand, form)):
                message = _("Hand {number} of {table} corrected.")
                self.message_user(request, message.format(number=hand.number, table=hand.session))
                return redirect("admin:ledger_hand_change", saved.pk)
        title = _("Correct hand {number} of {table}").format(number=hand.number, table=hand.session)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": hand,
            "title": title,
            "form": form,
        }
        return TemplateResponse(request, "admin/ledger/hand/correct.html", context)

    def _correct(self, request: HttpRequest, hand: Hand, form: CorrectionForm) -> Hand | None:
        data = form.cleaned_data["hand"]
        if not isinstance(data, dict):
            form.add_error("hand", _("A hand is a JSON object, its players by name."))
            return None
        try:
            return services.hand_correct(
                session=hand.session,
                number=hand.number,
                data=data,
                version=form.cleaned_data["version"],
                device=_admin_device(request),
            )
        except REFUSED as refused:
            if isinstance(refused, ScoringError):
                at = f" ({refused.path})" if refused.path else ""
                form.add_error("hand", _why(refused) + at)
            else:
                form.add_error(None, _why(refused))
        return None


@admin.register(Seat)
class SeatAdmin(ReadOnly[Seat]):
    """Read only: a table's seats are set on the table's page here, until its first hand (and
    go with a table deleted before it)."""

    list_display = ["session", "player", "position"]
    list_select_related = ["session", "player"]

    def has_delete_permission(self, request: HttpRequest, obj: Seat | None = None) -> bool:
        allowed = request.user.has_perm("ledger.delete_seat")
        return allowed and obj is not None and not _has_hands(obj.session)


@admin.register(HandChange)
class HandChangeAdmin(ReadOnly[HandChange]):
    list_display = ["hand", "kind", "device", "at"]
    list_filter = ["kind"]
    list_select_related = ["hand__session"]


@admin.register(TableChange)
class TableChangeAdmin(ReadOnly[TableChange]):
    """A change of where a table ends, as its history shows it."""

    list_display = ["session", "device", "at"]
    list_select_related = ["session"]


@admin.register(Result)
class ResultAdmin(ReadOnly[Result]):
    """Each hand's outcome per player, as the services write it with the hand: the rows the
    balances and statistics sum. A change adds a reversal of each row it takes back."""

    list_display = ["hand", "player", "score", "net", "unit", "won", "reverses", "created"]
    list_filter = ["unit", "won"]
    list_select_related = ["hand__session", "player"]
    raw_id_fields = ["session", "hand", "player", "reverses"]
