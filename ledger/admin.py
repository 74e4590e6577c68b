from django.contrib import admin

from ledger.models import Entry, Event, Hand, HandChange, Player, Round, Seat, TableSession


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class HandChangeInline(admin.TabularInline):
    model = HandChange
    extra = 0
    readonly_fields = ["kind", "before", "after", "device", "at"]
    can_delete = False


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


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "voided", "version", "device", "created"]
    list_filter = ["voided"]
    list_select_related = ["session"]
    inlines = [HandChangeInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
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
