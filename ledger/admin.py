from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin import actions
from django.contrib.admin.utils import unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import (
    Entry,
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    Player,
    Round,
    Seat,
    TableSession,
)
from ledger.tables import services

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin, TabularInline
else:
    # django-stubs makes the admin's classes generic in their model; Django's own take no
    # subscript, so at runtime ModelAdmin[Player] is just ModelAdmin.
    class ModelAdmin(admin.ModelAdmin):
        __class_getitem__ = classmethod(lambda cls, model: cls)

    class TabularInline(admin.TabularInline):
        __class_getitem__ = classmethod(lambda cls, models: cls)


Recounted = TypeVar("Recounted", bound=Hand | Seat)
Deleted = TypeVar("Deleted", bound=TableSession | Group | Event)


class KeepsMoney(ModelAdmin[Deleted]):
    """Deleted through its domain's service, which keeps one with money (hands, payments): a
    deletion asked for here is refused with a message saying so, on the object's page or the
    list, never a 500 (the models PROTECT those rows, which Django's delete pages would
    otherwise list one by one)."""

    def kept(self, obj: Deleted) -> str | None:
        raise NotImplementedError

    def delete(self, obj: Deleted) -> None:
        raise NotImplementedError

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not (refused := self.kept(obj)):
            try:
                return super().delete_view(request, object_id, extra_context)
            except services.Kept as kept:  # hands recorded since the page was shown
                refused = kept.message
        self.message_user(request, refused, messages.ERROR)
        return redirect(f"admin:ledger_{self.opts.model_name}_change", object_id)

    def delete_model(self, request: HttpRequest, obj: Deleted) -> None:
        self.delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Deleted]) -> None:
        for obj in queryset:
            self.delete(obj)

    @admin.action(
        permissions=["delete"], description=gettext_lazy("Delete selected %(verbose_name_plural)s")
    )
    def delete_selected(
        self, request: HttpRequest, queryset: QuerySet[Deleted]
    ) -> HttpResponse | None:
        """Django's own action, once none of those selected is kept."""
        refused = [message for obj in queryset if (message := self.kept(obj))]
        for message in refused:
            self.message_user(request, message, messages.ERROR)
        if refused:
            return None
        try:
            return actions.delete_selected(self, request, queryset)
        except services.Kept as kept:
            self.message_user(request, kept.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    actions = ["delete_selected"]


class SeatInline(TabularInline[Seat, TableSession]):
    model = Seat
    extra = 0


class HandChangeInline(TabularInline[HandChange, Hand]):
    model = HandChange
    extra = 0
    readonly_fields = ["kind", "before", "after", "device", "at"]
    can_delete = False


class RecountsItsTable(ModelAdmin[Recounted]):
    """Hands and seats edited here change what their table adds up to: its tally is counted
    again (ledger.tables.tally), as every change through ledger.tables.services does."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        services.table_recount(session=form.instance.session)

    def delete_model(self, request: HttpRequest, obj: Recounted) -> None:
        super().delete_model(request, obj)
        services.table_recount(session=obj.session)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Recounted]) -> None:
        tables = {obj.session for obj in queryset}
        super().delete_queryset(request, queryset)
        for table in tables:
            services.table_recount(session=table)


@admin.register(Player)
class PlayerAdmin(ModelAdmin[Player]):
    search_fields = ["name"]
    list_display = ["name", "table", "event", "created"]
    raw_id_fields = ["table", "event"]


@admin.register(TableSession)
class TableSessionAdmin(KeepsMoney[TableSession]):
    list_display = ["__str__", "game", "leader", "created", "revision"]
    list_filter = ["game"]
    list_select_related = ["leader"]
    raw_id_fields = ["leader"]
    readonly_fields = ["token", "read_token", "revision"]
    inlines = [SeatInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)  # the seats, then the tally
        services.table_recount(session=form.instance)

    def kept(self, obj: TableSession) -> str | None:
        return services.table_kept(obj)

    def delete(self, obj: TableSession) -> None:
        services.table_delete(session=obj)


@admin.register(Hand)
class HandAdmin(RecountsItsTable[Hand]):
    list_display = ["__str__", "number", "voided", "version", "device", "created"]
    list_filter = ["voided"]
    list_select_related = ["session"]
    inlines = [HandChangeInline]


@admin.register(Seat)
class SeatAdmin(RecountsItsTable[Seat]):
    list_display = ["session", "player", "position"]
    list_select_related = ["session", "player"]


@admin.register(HandChange)
class HandChangeAdmin(ModelAdmin[HandChange]):
    list_display = ["hand", "kind", "device", "at"]
    list_filter = ["kind"]
    list_select_related = ["hand__session"]


class EntryInline(TabularInline[Entry, Event]):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(KeepsMoney[Event]):
    list_display = ["name", "game", "rounds", "method", "created"]
    list_filter = ["game"]
    readonly_fields = ["token", "register_token", "read_token"]
    inlines = [EntryInline]

    def kept(self, obj: Event) -> str | None:
        return event_services.event_kept(obj)

    def delete(self, obj: Event) -> None:
        event_services.event_delete(event=obj)


@admin.register(Entry)
class EntryAdmin(ModelAdmin[Entry]):
    list_display = ["player", "event", "active", "created"]
    list_select_related = ["player", "event"]


@admin.register(Round)
class RoundAdmin(ModelAdmin[Round]):
    list_display = ["__str__", "method", "started", "ends"]
    list_select_related = ["event"]


@admin.register(Group)
class GroupAdmin(KeepsMoney[Group]):
    list_display = ["name", "game", "created"]
    list_filter = ["game"]
    readonly_fields = ["token", "organiser_token"]
    search_fields = ["name"]

    def kept(self, obj: Group) -> str | None:
        return group_services.group_kept(obj)

    def delete(self, obj: Group) -> None:
        group_services.group_delete(group=obj)


@admin.register(Payment)
class PaymentAdmin(ModelAdmin[Payment]):
    """Read only: a payment is recorded once from the group's page or the API and voided
    there (with its history), never edited or deleted."""

    list_display = ["__str__", "group", "created", "voided"]
    list_select_related = ["group", "payer", "payee"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False
