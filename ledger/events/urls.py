"""A tournament's pages: the organiser's link /o/, registration /j/ and the results /e/."""

from django.urls import path

from ledger.events import views
from ledger.web.views import stream

urlpatterns = [
    path("events/new/", views.event_new, name="event_new"),
    path("o/<token:token>/", views.event_organise, name="event_organise"),
    path("o/<token:token>/players/", views.event_add, name="event_add"),
    path("o/<token:token>/players/group/", views.event_add_group, name="event_add_group"),
    path("o/<token:token>/players/drop/", views.event_drop, name="event_drop"),
    path("o/<token:token>/rounds/", views.event_seat, name="event_seat"),
    path("o/<token:token>/undo/", views.event_undo, name="event_undo"),
    path("o/<token:token>/rounds/<number:number>/begin/", views.event_begin, name="event_begin"),
    path("o/<token:token>/rounds/<number:number>/swap/", views.event_swap, name="event_swap"),
    path("o/<token:token>/rounds/<number:number>/cards/", views.event_cards, name="event_cards"),
    path("j/<token:token>/", views.event_register, name="event_register"),
    path("e/<token:token>/", views.event_results, name="event_results"),
    path("e/<token:token>/stream/", stream, name="event_stream"),
    path("e/<token:token>/projector/", views.event_projector, name="event_projector"),
    path("e/<token:token>/players/<path:name>/", views.event_player, name="event_player"),
    path("e/<token:token>/<slug:kind>.csv", views.event_export, name="event_export"),
]
