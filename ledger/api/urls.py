from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ledger.api import events, groups, tables

urlpatterns = [
    path("score", tables.Score.as_view(), name="api-score"),
    path("games/", tables.Games.as_view(), name="api-games"),
    path("players/", tables.Players.as_view(), name="api-players"),
    path("auth/token/", tables.Token.as_view(), name="api-token"),
    path("sessions/", tables.Sessions.as_view(), name="api-sessions"),
    path("sessions/<token:token>/", tables.SessionDetail.as_view(), name="api-session"),
    path("sessions/<token:token>/lock/", tables.SessionLock.as_view(), name="api-lock"),
    path("sessions/<token:token>/ends/", tables.SessionEnds.as_view(), name="api-ends"),
    path("sessions/<token:token>/hands/", tables.Hands.as_view(), name="api-hands"),
    path(
        "sessions/<token:token>/hands/<number:number>/",
        tables.HandDetail.as_view(),
        name="api-hand",
    ),
    path(
        "sessions/<token:token>/hands/<number:number>/void/",
        tables.HandVoid.as_view(),
        name="api-void",
    ),
    path("sessions/<token:token>/history/", tables.History.as_view(), name="api-history"),
    path(
        "sessions/<token:token>/export/<slug:kind>.csv",
        tables.Export.as_view(),
        name="api-export",
    ),
    path("shared/<token:read_token>/", tables.Shared.as_view(), name="api-shared"),
    path("events/", events.Events.as_view(), name="api-events"),
    path("events/<token:event_token>/", events.EventDetail.as_view(), name="api-event"),
    path("events/<token:event_token>/entries/", events.EventEntries.as_view(), name="api-entries"),
    path("events/<token:event_token>/entries/drop/", events.EventDrop.as_view(), name="api-drop"),
    path("events/<token:event_token>/rounds/", events.EventRounds.as_view(), name="api-rounds"),
    path(
        "events/<token:event_token>/rounds/<number:number>/begin/",
        events.RoundBegin.as_view(),
        name="api-round-begin",
    ),
    path(
        "events/<token:event_token>/rounds/<number:number>/swap/",
        events.RoundSwap.as_view(),
        name="api-round-swap",
    ),
    path("register/<token:register_token>/", events.EventRegister.as_view(), name="api-register"),
    path("results/<token:results_token>/", events.EventResults.as_view(), name="api-results"),
    path(
        "results/<token:results_token>/<slug:kind>.csv",
        events.EventExport.as_view(),
        name="api-event-export",
    ),
    path("groups/", groups.Groups.as_view(), name="api-groups"),
    path("groups/<token:group_token>/", groups.GroupDetail.as_view(), name="api-group"),
    path(
        "groups/<token:group_token>/statistics/",
        groups.GroupStatistics.as_view(),
        name="api-group-statistics",
    ),
    path("groups/<token:group_token>/ratings/", groups.GroupRatings.as_view(), name="api-ratings"),
    path(
        "groups/<token:group_token>/export/<slug:kind>.csv",
        groups.GroupExport.as_view(),
        name="api-group-export",
    ),
    path(
        "groups/<token:group_token>/payments/",
        groups.GroupPayments.as_view(),
        name="api-payments",
    ),
    path(
        "groups/<token:group_token>/payments/<number:payment>/void/",
        groups.PaymentVoid.as_view(),
        name="api-payment-void",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's set-up as a script of its own, not inline, and our
    # template drops the inline style: the docs work under the Content-Security-Policy.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/api_docs.html"
        ),
        name="api-docs",
    ),
]
