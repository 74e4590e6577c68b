from django.contrib import admin
from django.urls import include, path

from ledger import views

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
    path("s/<str:token>/", views.shared, name="shared"),
    path("s/<str:token>/export/<slug:kind>.csv", views.shared_export, name="shared_export"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
