"""A tournament in the admin: one with hands played at its tables is kept."""

from django.contrib import admin

from ledger.events import services as event_services
from ledger.events.models import Entry, Event, Round
from ledger.web.admin import KeepsMoney, ModelAdmin, TabularInline


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

    def why_kept(self, obj: Event) -> str | None:
        return event_services.why_event_kept(obj)

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
