from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ledger.models import Entry, Event, Hand, HandChange, Player, Round, Seat, TableSession
from ledger.tables import services


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class HandChangeInline(admin.TabularInline):
    model = HandChange
    extra = 0
    readonly_fields = ["kind", "before", "after", "device", "at"]
    can_delete = False


class RecountsItsTable(admin.ModelAdmin):
    """Hands and seats edited here change what their table adds up to: its tally is counted
    again (ledger.tables.tally), as every change through ledger.tables.services does."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        services.table_recount(session=form.instance.session)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        super().delete_model(request, obj)
        services.table_recount(session=obj.session)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        tables = {obj.session for obj in queryset}
        super().delete_queryset(request, queryset)
        for table in tables:
            services.table_recount(session=table)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    list_display = ["name", "created"]


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "first", "created", "revision"]
    list_filter = ["game"]
    readonly_fields = ["token", "read_token", "revision"]
    inlines = [SeatInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)  # the seats, then the tally
        services.table_recount(session=form.instance)


@admin.register(Hand)
class HandAdmin(RecountsItsTable):
    list_display = ["__str__", "number", "voided", "version", "device", "created"]
    list_filter = ["voided"]
    list_select_related = ["session"]
    inlines = [HandChangeInline]


@admin.register(Seat)
class SeatAdmin(RecountsItsTable):
    list_display = ["session", "player", "position"]
    list_select_related = ["session", "player"]


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin):
    list_display = ["hand", "kind", "device", "at"]
    list_filter = ["kind"]
    list_select_related = ["hand__session"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "rounds", "method", "created"]
    list_filter = ["game"]
    readonly_fields = ["token", "register_token", "read_token"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "active", "created"]
    list_select_related = ["player", "event"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "method", "started", "ends"]
    list_select_related = ["event"]
