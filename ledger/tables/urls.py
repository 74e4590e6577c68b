"""A table's pages: /new/, its players' link /t/<token>/ and the shared summary /s/<token>/."""

from django.urls import path

from ledger.players.views import table_me
from ledger.tables import views
from ledger.web.views import stream

urlpatterns = [
    path("new/", views.session_new, name="session_new"),
    path("t/<token:token>/", views.table, name="table"),
    path("t/<token:token>/hands/", views.hand_save, name="hand_save"),
    path("t/<token:token>/preview/", views.hand_preview, name="hand_preview"),
    path("t/<token:token>/me/", table_me, name="table_me"),
    path("t/<token:token>/live/", views.live, name="live"),
    path("t/<token:token>/stream/", stream, name="stream"),
    path("t/<token:token>/qr.svg", views.qr, name="qr"),
    path("t/<token:token>/hands/<number:number>/", views.hand_detail, name="hand_detail"),
    path("t/<token:token>/hands/<number:number>/void/", views.hand_void, name="hand_void"),
    path("t/<token:token>/history/", views.history, name="history"),
    path("t/<token:token>/lock/", views.lock, name="lock"),
    path("t/<token:token>/ends/", views.ends, name="ends"),
    path("t/<token:token>/remove/", views.remove, name="table_remove"),
    path("t/<token:token>/again/", views.again, name="table_again"),
    path("t/<token:token>/organise/<token:organiser_token>/", views.organise, name="organise"),
    path("t/<token:token>/summary/", views.summary, name="summary"),
    path("t/<token:token>/export/<slug:kind>.csv", views.export, name="export"),
    path("s/<token:token>/", views.shared, name="shared"),
    path("s/<token:token>/export/<slug:kind>.csv", views.shared_export, name="shared_export"),
]
