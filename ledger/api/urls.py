from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ledger.api import views

urlpatterns = [
    path("score", views.Score.as_view(), name="api-score"),
    path("games/", views.Games.as_view(), name="api-games"),
    path("players/", views.Players.as_view(), name="api-players"),
    path("auth/token/", views.Token.as_view(), name="api-token"),
    path("sessions/", views.Sessions.as_view(), name="api-sessions"),
    path("sessions/<token:token>/", views.SessionDetail.as_view(), name="api-session"),
    path("sessions/<token:token>/lock/", views.SessionLock.as_view(), name="api-lock"),
    path("sessions/<token:token>/hands/", views.Hands.as_view(), name="api-hands"),
    path(
        "sessions/<token:token>/hands/<number:number>/",
        views.HandDetail.as_view(),
        name="api-hand",
    ),
    path(
        "sessions/<token:token>/hands/<number:number>/void/",
        views.HandVoid.as_view(),
        name="api-void",
    ),
    path("sessions/<token:token>/history/", views.History.as_view(), name="api-history"),
    path(
        "sessions/<token:token>/export/<slug:kind>.csv",
        views.Export.as_view(),
        name="api-export",
    ),
    path("shared/<token:read_token>/", views.Shared.as_view(), name="api-shared"),
    path("events/", views.Events.as_view(), name="api-events"),
    path("events/<token:event_token>/", views.EventDetail.as_view(), name="api-event"),
    path("events/<token:event_token>/entries/", views.EventEntries.as_view(), name="api-entries"),
    path("events/<token:event_token>/entries/drop/", views.EventDrop.as_view(), name="api-drop"),
    path("events/<token:event_token>/rounds/", views.EventRounds.as_view(), name="api-rounds"),
    path(
        "events/<token:event_token>/rounds/<number:number>/begin/",
        views.RoundBegin.as_view(),
        name="api-round-begin",
    ),
    path(
        "events/<token:event_token>/rounds/<number:number>/swap/",
        views.RoundSwap.as_view(),
        name="api-round-swap",
    ),
    path("register/<token:register_token>/", views.EventRegister.as_view(), name="api-register"),
    path("results/<token:results_token>/", views.EventResults.as_view(), name="api-results"),
    path(
        "results/<token:results_token>/<slug:kind>.csv",
        views.EventExport.as_view(),
        name="api-event-export",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's set-up as a script of its own, not inline, and our
    # template drops the inline style: the docs work under the Content-Security-Policy.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="ledger/api_docs.html"
        ),
        name="api-docs",
    ),
]
