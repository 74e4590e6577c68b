from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from ledger.api import views

urlpatterns = [
    path("score", views.Score.as_view(), name="api-score"),
    path("games/", views.Games.as_view(), name="api-games"),
    path("players/", views.Players.as_view(), name="api-players"),
    path("auth/token/", views.Token.as_view(), name="api-token"),
    path("sessions/", views.Sessions.as_view(), name="api-sessions"),
    path("sessions/<str:token>/", views.SessionDetail.as_view(), name="api-session"),
    path("sessions/<str:token>/lock/", views.SessionLock.as_view(), name="api-lock"),
    path("sessions/<str:token>/hands/", views.Hands.as_view(), name="api-hands"),
    path(
        "sessions/<str:token>/hands/<int:number>/",
        views.HandDetail.as_view(),
        name="api-hand",
    ),
    path(
        "sessions/<str:token>/hands/<int:number>/void/",
        views.HandVoid.as_view(),
        name="api-void",
    ),
    path("sessions/<str:token>/history/", views.History.as_view(), name="api-history"),
    path(
        "sessions/<str:token>/export/<slug:kind>.csv",
        views.Export.as_view(),
        name="api-export",
    ),
    path("shared/<str:read_token>/", views.Shared.as_view(), name="api-shared"),
    path("events/", views.Events.as_view(), name="api-events"),
    path("events/<str:event_token>/", views.EventDetail.as_view(), name="api-event"),
    path("events/<str:event_token>/entries/", views.EventEntries.as_view(), name="api-entries"),
    path("events/<str:event_token>/entries/drop/", views.EventDrop.as_view(), name="api-drop"),
    path("events/<str:event_token>/rounds/", views.EventRounds.as_view(), name="api-rounds"),
    path(
        "events/<str:event_token>/rounds/<int:number>/begin/",
        views.RoundBegin.as_view(),
        name="api-round-begin",
    ),
    path(
        "events/<str:event_token>/rounds/<int:number>/swap/",
        views.RoundSwap.as_view(),
        name="api-round-swap",
    ),
    path("register/<str:register_token>/", views.EventRegister.as_view(), name="api-register"),
    path("results/<str:results_token>/", views.EventResults.as_view(), name="api-results"),
    path(
        "results/<str:results_token>/<slug:kind>.csv",
        views.EventExport.as_view(),
        name="api-event-export",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
