"""/api/v1/ for tournaments: the organiser's link (in the path) is the right to change an event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api import event_serializers as s
from ledger.api.downloads import Download
from ledger.api.errors import (
    CODE_RESPONSES,
    WRITE_RESPONSES,
    BadRequest,
)
from ledger.api.serializers import valid
from ledger.api.shapes import ErrorShape
from ledger.api.throttles import CodeThrottle, WriteThrottle
from ledger.events import exports as event_exports
from ledger.events import selectors, services
from ledger.groups import selectors as group_selectors
from ledger.groups.models import Group
from ledger.links import NoSuchLink
from ledger.web import limits

EVENT = OpenApiParameter(
    "event_token", str, OpenApiParameter.PATH, description="The event's organiser token."
)
ROUND = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round.")
EVENT_WRITE = {
    400: ErrorShape,
    409: OpenApiResponse(ErrorShape, "The round has begun, or the last one has not."),
    **CODE_RESPONSES,
    **WRITE_RESPONSES,
}


def _organised(request: Request, token: str) -> dict[str, Any]:
    return s.results_data(selectors.event_by_token(token), organiser=True)


def _entry_change(request: Request, token: str, change: Callable[..., object]) -> Response:
    event = selectors.event_by_token(token)
    change(event=event, name=valid(s.NameIn, request.data)["name"])
    return Response(_organised(request, token))


def _group(request: Request, token: str) -> Group:
    """The group ``token`` opens; else 400 at ``group`` (the event in the path was found)."""
    try:
        return group_selectors.group_by_token(token)
    except NoSuchLink:
        limits.mark_wrong_link(request._request)  # a group's token is guessed as a table's is
        raise BadRequest("no group has this token", "group") from None


class Events(APIView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        request=s.EventIn,
        responses={201: s.EventOut, 400: ErrorShape, 401: ErrorShape, **WRITE_RESPONSES},
        tags=["tournaments"],
    )
    def post(self, request: Request) -> Response:
        """Set up a tournament; the answer holds its three tokens."""
        data = valid(s.EventIn, request.data)
        event = services.event_create(
            **data, owner=request.user if request.user.is_authenticated else None
        )
        return Response(s.results_data(event, organiser=True), status=201)


class EventDetail(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[EVENT], responses={200: s.EventOut, **CODE_RESPONSES}, tags=["tournaments"]
    )
    def get(self, request: Request, event_token: str) -> Response:
        """The organiser's view: players, rounds with every table's join token, standings."""
        return Response(_organised(request, event_token))


class EventEntries(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[EVENT],
        request=s.EntryIn,
        responses={
            200: s.EntriesOut,
            **EVENT_WRITE,
            400: OpenApiResponse(ErrorShape, "Refused, or no group has that token (path: group)."),
        },
        tags=["tournaments"],
    )
    def post(self, request: Request, event_token: str) -> Response:
        """Register a player (a late arrival is seated from the next round), or every player
        of a group by name in one step (those already registered are left as they are)."""
        event = selectors.event_by_token(event_token)
        data = valid(s.EntryIn, request.data)
        if "name" in data:
            services.entry_add(event=event, name=data["name"], organiser=True)
            return Response(_organised(request, event_token))
        done = services.group_register(event=event, group=_group(request, data["group"]))
        body = {**_organised(request, event_token), "added": list(done.added)}
        return Response(body | {"already_registered": list(done.already)})


class EventDrop(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[EVENT], request=s.NameIn, responses={200: s.EventOut, **EVENT_WRITE},
        tags=["tournaments"],
    )  # fmt: skip
    def post(self, request: Request, event_token: str) -> Response:
        """A player leaves: not seated again; their results stay."""
        return _entry_change(request, event_token, services.entry_drop)


class EventRounds(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[EVENT], request=None, responses={201: s.EventOut, **EVENT_WRITE},
        tags=["tournaments"],
    )  # fmt: skip
    def post(self, request: Request, event_token: str) -> Response:
        """Seat the next round (its tables are table sessions; see their join tokens)."""
        services.round_seat(event=selectors.event_by_token(event_token))
        return Response(_organised(request, event_token), status=201)


class RoundBegin(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[EVENT, ROUND], request=None, responses={200: s.EventOut, **EVENT_WRITE},
        tags=["tournaments"],
    )  # fmt: skip
    def post(self, request: Request, event_token: str, number: int) -> Response:
        """The round begins (and its clock, with a time limit)."""
        services.round_begin(round=selectors.event_round(event_token, number))
        return Response(_organised(request, event_token))


class RoundSwap(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[EVENT, ROUND], request=s.SwapIn, responses={200: s.EventOut, **EVENT_WRITE},
        tags=["tournaments"],
    )  # fmt: skip
    def post(self, request: Request, event_token: str, number: int) -> Response:
        """Swap two players (or put a registered substitute in a place) before it begins."""
        this_round = selectors.event_round(event_token, number)
        data = valid(s.SwapIn, request.data)
        services.round_swap(round=this_round, first=data["first"], second=data["second"])
        return Response(_organised(request, event_token))


class EventRegister(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("register_token", str, OpenApiParameter.PATH, description="Sign-up.")
        ],
        request=s.NameIn,
        responses={201: s.ResultsOut, **EVENT_WRITE},
        tags=["tournaments"],
    )
    def post(self, request: Request, register_token: str) -> Response:
        """A player registers themselves through the event's registration link."""
        event = selectors.event_by_register_token(register_token)
        name = valid(s.NameIn, request.data)["name"]
        services.entry_add(event=event, name=name, organiser=False)
        return Response(s.results_data(event, organiser=False), status=201)


class EventResults(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("results_token", str, OpenApiParameter.PATH, description="Read-only.")
        ],
        responses={200: s.ResultsOut, **CODE_RESPONSES},
        tags=["tournaments"],
    )
    def get(self, request: Request, results_token: str) -> Response:
        """Standings as if every table finished now, and the rounds' tables (read-only)."""
        event = selectors.event_by_read_token(results_token)
        return Response(s.results_data(event, organiser=False))


class EventExport(Download):
    @extend_schema(
        parameters=[
            OpenApiParameter("results_token", str, OpenApiParameter.PATH, description="Read-only."),
            OpenApiParameter(
                "kind", str, OpenApiParameter.PATH, enum=list(event_exports.EVENT_EXPORTS),
                description="docs/exports.md",
            ),
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, **CODE_RESPONSES},
        tags=["tournaments"],
    )  # fmt: skip
    def get(self, request: Request, results_token: str, kind: str) -> HttpResponseBase:
        """The event's standings or every settlement, as CSV (docs/exports.md)."""
        return event_exports.event_response(selectors.event_by_read_token(results_token), kind)
