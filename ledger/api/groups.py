"""/api/v1/ for groups: the group's link (in the path) reads it, starts its tables and records
payments; voiding a payment takes the organiser token as ``X-Organiser-Token``, which organises
the group's tables too (ledger.api.tables), as the organiser link does on the web. A table's
link gives nothing of its group."""

from __future__ import annotations

import re
import secrets
from contextlib import suppress
from datetime import date

from django.http import HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api import group_serializers as s
from ledger.api.downloads import Download
from ledger.api.errors import CODE_RESPONSES, WRITE_RESPONSES, BadRequest, Forbidden
from ledger.api.serializers import valid
from ledger.api.shapes import ErrorShape
from ledger.api.tables import idempotency_key, wrong_organiser_token
from ledger.api.throttles import CodeThrottle, WriteThrottle
from ledger.groups import exports as group_exports
from ledger.groups import selectors, services
from ledger.groups.models import Group
from ledger.links import NoSuchLink

GROUP = OpenApiParameter("group_token", str, OpenApiParameter.PATH, description="The group's link.")
PAYMENT_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Made by the client for each payment (8 to 64 characters): sent again, the "
    "payment is recorded once.",
    pattern=r"^[\w-]{8,64}$",
)
ORGANISER = OpenApiParameter(
    "X-Organiser-Token", str, OpenApiParameter.HEADER, description="The group's organiser token."
)


class Groups(APIView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        request=s.GroupIn,
        responses={201: s.CreatedGroupOut, 400: ErrorShape, **WRITE_RESPONSES},
        tags=["groups"],
    )
    def post(self, request: Request) -> Response:
        """Start a group: a name, its usual game and options. The answer holds its link and
        its organiser token."""
        data = valid(s.GroupIn, request.data)
        group = services.group_create(**data)
        body = {
            **s.group_data(group),
            "token": group.token,
            "organiser_token": group.organiser_token,
        }
        return Response(body, status=201)


class GroupDetail(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[GROUP], responses={200: s.GroupOut, **CODE_RESPONSES}, tags=["groups"]
    )
    def get(self, request: Request, group_token: str) -> Response:
        """The group's players, balances, settle-up, tables and payments."""
        return Response(s.group_data(selectors.group_by_token(group_token)))


PERIOD = [
    OpenApiParameter(
        bound,
        OpenApiTypes.DATE,
        OpenApiParameter.QUERY,
        required=False,
        description=f"Count the hands played {word} this day (YYYY-MM-DD, included; on the "
        "server's clock); left out: no bound.",
    )
    for bound, word in (("from", "from"), ("to", "up to"))
]


def period(request: Request) -> tuple[date | None, date | None]:
    """``?from=`` and ``?to=`` as days (each YYYY-MM-DD, or left out); BadRequest otherwise."""
    start, end = _day(request, "from"), _day(request, "to")
    if start and end and end < start:
        raise BadRequest(_("to: the period ends before it begins (from)"), "to")
    return start, end


def _day(request: Request, bound: str) -> date | None:
    sent = request.query_params.getlist(bound)
    if not sent:
        return None
    if len(sent) == 1 and _DAY.fullmatch(sent[0]):
        with suppress(ValueError):  # 2026-02-30
            return date.fromisoformat(sent[0])
    message = _("{bound}: one day, written YYYY-MM-DD (2026-03-05)").format(bound=bound)
    raise BadRequest(message, bound)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class GroupStatistics(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[GROUP, *PERIOD],
        responses={
            200: s.StatisticsOut,
            400: OpenApiResponse(ErrorShape, "A from or to that is not a day, or to before from."),
            **CODE_RESPONSES,
        },
        tags=["groups"],
    )
    def get(self, request: Request, group_token: str) -> Response:
        """Each player's tables, hands, wins, average score, specials, best and worst table and
        money over time, over all time or a period (docs/groups.md)."""
        group = selectors.group_by_token(group_token)
        start, end = period(request)
        return Response(s.statistics_data(group, start, end))


class GroupRatings(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[GROUP], responses={200: s.RatingsOut, **CODE_RESPONSES}, tags=["groups"]
    )
    def get(self, request: Request, group_token: str) -> Response:
        """Each player's rating (Plackett-Luce, one table one match), computed from every table
        of the group when asked: best first (docs/groups.md)."""
        return Response(s.ratings_data(selectors.group_by_token(group_token)))


class GroupExport(Download):
    @extend_schema(
        parameters=[
            GROUP,
            OpenApiParameter(
                "kind",
                str,
                OpenApiParameter.PATH,
                enum=list(group_exports.EXPORTS),
                description="docs/exports.md",
            ),
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, **CODE_RESPONSES},
        tags=["groups"],
    )
    def get(self, request: Request, group_token: str, kind: str) -> HttpResponseBase:
        """The group's tables, payments, balances or statistics as CSV (docs/exports.md)."""
        return group_exports.response(selectors.group_by_token(group_token), kind)


class GroupPayments(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[GROUP, PAYMENT_KEY],
        request=s.PaymentIn,
        responses={
            201: s.PaymentOut,
            200: OpenApiResponse(s.PaymentOut, "Sent again with the same key: recorded once."),
            400: ErrorShape,
            422: OpenApiResponse(ErrorShape, "The key was used for another payment."),
            **CODE_RESPONSES,
            **WRITE_RESPONSES,
        },
        tags=["groups"],
    )
    def post(self, request: Request, group_token: str) -> Response:
        """Record that one player paid another ("Bob paid Anna 20 in cash"): it moves their
        balances. Exactly once per Idempotency-Key."""
        group = selectors.group_by_token(group_token)
        key = idempotency_key(request, "payment")
        data = valid(s.PaymentIn, request.data)
        recorded = services.payment_record(
            group=group,
            payer=data["from"],
            payee=data["to"],
            amount=data["amount"],
            unit=data["unit"],
            chip=data.get("chip"),
            note=data["note"],
            device=data["device"],
            idempotency_key=key,
        )
        body = s.payment_data(recorded.payment)
        return Response(body, status=200 if recorded.replayed else 201)


def _require_organiser(request: Request, group: Group) -> None:
    sent = request.headers.get("X-Organiser-Token", "")
    if not secrets.compare_digest(sent.encode(), group.organiser_token.encode()):
        wrong_organiser_token(request)
        raise Forbidden("only the group's organiser can void a payment: send X-Organiser-Token")


class PaymentVoid(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[
            GROUP,
            OpenApiParameter("payment", int, OpenApiParameter.PATH, description="Its id."),
            ORGANISER,
        ],
        request=s.PaymentVoidIn,
        responses={
            200: s.PaymentOut,
            400: ErrorShape,
            403: OpenApiResponse(ErrorShape, "Only the group's organiser can void a payment."),
            409: OpenApiResponse(ErrorShape, "The payment was already voided."),
            **CODE_RESPONSES,
            **WRITE_RESPONSES,
        },
        tags=["groups"],
    )
    def post(self, request: Request, group_token: str, payment: int) -> Response:
        """Void a payment: it stays on record, with who voided it (``device``), when and why
        (``reason``), both optional, and moves no balance. Organiser."""
        group = selectors.group_by_token(group_token)
        _require_organiser(request, group)
        found = group.payments.filter(pk=payment).first()
        if found is None:
            raise NoSuchLink("No such payment")
        data = valid(s.PaymentVoidIn, request.data)
        voided = services.payment_void(payment=found, device=data["device"], reason=data["reason"])
        return Response(s.payment_data(voided))
