from django.contrib import admin
from django.urls import include, path, register_converter

from ledger import converters, event_views, views

register_converter(converters.Token, "token")
register_converter(converters.Number, "number")

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("new/", views.session_new, name="session_new"),
    path("t/<token:token>/", views.table, name="table"),
    path("t/<token:token>/live/", views.live, name="live"),
    path("t/<token:token>/qr.svg", views.qr, name="qr"),
    path("t/<token:token>/hands/<number:number>/", views.hand_detail, name="hand_detail"),
    path("t/<token:token>/history/", views.history, name="history"),
    path("t/<token:token>/lock/", views.lock, name="lock"),
    path("t/<token:token>/organise/<token:organiser_token>/", views.organise, name="organise"),
    path("t/<token:token>/summary/", views.summary, name="summary"),
    path("t/<token:token>/export/<slug:kind>.csv", views.export, name="export"),
    path("events/new/", event_views.event_new, name="event_new"),
    path("o/<token:token>/", event_views.event_organise, name="event_organise"),
    path(
        "o/<token:token>/rounds/<number:number>/cards/", event_views.event_cards, name="event_cards"
    ),
    path("j/<token:token>/", event_views.event_register, name="event_register"),
    path("e/<token:token>/", event_views.event_results, name="event_results"),
    path("e/<token:token>/projector/", event_views.event_projector, name="event_projector"),
    path("e/<token:token>/players/<path:name>/", event_views.event_player, name="event_player"),
    path("e/<token:token>/<slug:kind>.csv", event_views.event_export, name="event_export"),
    path("s/<token:token>/", views.shared, name="shared"),
    path("s/<token:token>/export/<slug:kind>.csv", views.shared_export, name="shared_export"),
    path("api/v1/", include("ledger.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler400 = "ledger.views.bad_request"
handler404 = "ledger.views.not_found"
handler500 = "ledger.views.server_error"
