from django.contrib import admin
from django.urls import include, path, register_converter

from ledger.web import converters, health, pwa, views

register_converter(converters.Token, "token")
register_converter(converters.Number, "number")

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("ledger.tables.urls")),
    path("", include("ledger.events.urls")),
    path("", include("ledger.groups.urls")),
    path("api/v1/", include("ledger.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler400 = "ledger.web.views.bad_request"
handler404 = "ledger.web.views.not_found"
handler500 = "ledger.web.views.server_error"
