"""The players in the admin: every circle's, a lone table's, a tournament's or a group's."""

from django.contrib import admin

from ledger.players.models import Player
from ledger.web.admin import ModelAdmin


@admin.register(Player)
class PlayerAdmin(ModelAdmin[Player]):
    search_fields = ["name"]
    list_display = ["name", "table", "event", "created"]
    raw_id_fields = ["table", "event"]
