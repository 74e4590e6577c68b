"""A group's pages: /groups/new/ and its link /g/<token>/."""

from django.urls import path

from ledger.groups import views
from ledger.players.views import group_me
from ledger.web.views import stream

urlpatterns = [
    path("groups/new/", views.group_new, name="group_new"),
    path("g/<token:token>/", views.group, name="group"),
    path("t/<token:token>/group/", views.group_from_table, name="table_group_new"),
    path("g/<token:token>/me/", group_me, name="group_me"),
    path("g/<token:token>/stream/", stream, name="group_stream"),
    path(
        "g/<token:token>/organise/<token:organiser_token>/",
        views.group_organise,
        name="group_organise",
    ),
    path("g/<token:token>/settings/", views.group_settings, name="group_settings"),
    path("g/<token:token>/evening/", views.evening_close, name="evening_close"),
    path("g/<token:token>/tables/", views.tables, name="group_tables"),
    path("g/<token:token>/tables/new/", views.table_new, name="group_table_new"),
    path("g/<token:token>/tables/<number:table>/again/", views.play_again, name="play_again"),
    path("g/<token:token>/tables/<number:table>/next/", views.moved_on, name="moved_on"),
    path("g/<token:token>/payments/", views.payments, name="group_payments"),
    path("g/<token:token>/payments/new/", views.payment_new, name="payment_new"),
    path(
        "g/<token:token>/payments/<number:payment>/void/", views.payment_void, name="payment_void"
    ),
    path("g/<token:token>/players/<number:player>/", views.player, name="group_player"),
    path("g/<token:token>/statistics/", views.statistics, name="group_statistics"),
    path("g/<token:token>/export/<slug:kind>.csv", views.export, name="group_export"),
]
