from django.contrib import admin
from django.urls import include, path

from ledger import event_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("new/", views.session_new, name="session_new"),
    path("t/<str:token>/", views.table, name="table"),
    path("t/<str:token>/live/", views.live, name="live"),
    path("t/<str:token>/qr.svg", views.qr, name="qr"),
    path("t/<str:token>/hands/<int:number>/", views.hand_detail, name="hand_detail"),
    path("t/<str:token>/history/", views.history, name="history"),
    path("t/<str:token>/lock/", views.lock, name="lock"),
    path("t/<str:token>/organise/<str:organiser_token>/", views.organise, name="organise"),
    path("t/<str:token>/summary/", views.summary, name="summary"),
    path("t/<str:token>/export/<slug:kind>.csv", views.export, name="export"),
    path("events/new/", event_views.event_new, name="event_new"),
    path("o/<str:token>/", event_views.event_organise, name="event_organise"),
    path("o/<str:token>/rounds/<int:number>/cards/", event_views.event_cards, name="event_cards"),
    path("j/<str:token>/", event_views.event_register, name="event_register"),
    path("e/<str:token>/", event_views.event_results, name="event_results"),
    path("e/<str:token>/projector/", event_views.event_projector, name="event_projector"),
    path("e/<str:token>/players/<path:name>/", event_views.event_player, name="event_player"),
    path("e/<str:token>/<slug:kind>.csv", event_views.event_export, name="event_export"),
    path("s/<str:token>/", views.shared, name="shared"),
    path("s/<str:token>/export/<slug:kind>.csv", views.shared_export, name="shared_export"),
    path("api/v1/", include("ledger.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler404 = "ledger.views.not_found"
