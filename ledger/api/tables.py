"""/api/v1/ for tables: the same services and selectors as the htmx views, as JSON.

Rights, as on the web: a session's join token (in the path) is a player's rights on that table
and nothing else; the organiser's rights (lock, void, ends) come with the account that created
the table, or with its organiser token sent as ``X-Organiser-Token`` (at a tournament's or a
group's table, the event's or the group's organiser token too). Errors are one JSON
object, ``{"error": ..., "path": ...}``, as in the scoring contract (ledger/api/errors.py).
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.paginator import Paginator
from django.http import HttpResponseBase
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.authtoken.models import Token as AuthToken
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring
from ledger.api import serializers as s
from ledger.api.downloads import Download
from ledger.api.errors import (
    CODE_RESPONSES,
    ORGANISER_RESPONSES,
    WRITE_RESPONSES,
    BadCredentials,
    BadRequest,
    Forbidden,
)
from ledger.api.serializers import valid
from ledger.api.shapes import ErrorShape, ScoreShape, SessionShape
from ledger.api.throttles import (
    HANDS_PER_WRITE,
    CodeThrottle,
    LoginThrottle,
    WriteThrottle,
    charge_by_cost,
)
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import TableSession
from ledger.tables import checks, selectors, services
from ledger.tables import exports as table_exports
from ledger.web import limits, rights

TOKEN = OpenApiParameter("token", str, OpenApiParameter.PATH, description="The join token.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The hand's number.")
KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Made by the client for each hand it submits (8 to 64 characters). A retry "
    "with the same key and hand returns the first answer and stores nothing new.",
    pattern=r"^[\w-]{8,64}$",
)
START_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Made by the client for each table it starts (8 to 64 characters; optional, "
    "and worth sending): sent again with the same key and body, the answer is the table the "
    "first send started, and nothing more is started. A key is its sender's: the account, "
    "else the X-Organiser-Token sent, else the address; another sender's same key starts a "
    "table of its own.",
    pattern=r"^[\w-]{8,64}$",
)
ORGANISER = OpenApiParameter(
    "X-Organiser-Token",
    str,
    OpenApiParameter.HEADER,
    description="The table's organiser token (at a tournament's table, the event's organiser "
    "token will do; at a group's table, the group's), unless you are the account that created "
    "it (or the event).",
)
# What a correction or a void answers, besides the rights it needs.
HAND_CHANGED = {
    200: s.HandOut,
    400: ErrorShape,
    409: OpenApiResponse(s.ConflictOut, "The hand changed since your version."),
    423: OpenApiResponse(ErrorShape, "The organiser locked the table."),
}


def _session(token: str) -> TableSession:
    return selectors.session_by_token(token)  # 404 without the right token


def _is_organiser(request: Request, session: TableSession) -> bool:
    """The account that created the table, or sent its organiser token; at a tournament's
    table, the event's account or its organiser token too; at a group's table, the group's
    organiser token, as the group's organiser link organises its tables on the web."""
    if session.organised_by(request.user):
        return True
    event = session.round.event if session.round is not None else None
    group = session.group
    sent = request.headers.get("X-Organiser-Token", "").encode()
    tokens = [
        session.organiser_token,
        *([event.token] if event else []),
        *([group.organiser_token] if group else []),
    ]
    return any(secrets.compare_digest(sent, token.encode()) for token in tokens)


def _require_organiser(request: Request, session: TableSession) -> None:
    if not _is_organiser(request, session):
        wrong_organiser_token(request)
        raise Forbidden("Only the table's organiser can do this.")


def wrong_organiser_token(request: Request) -> None:
    """An organiser token was sent and is not the one: a guess, counted as a wrong link is
    (none sent: a player's phone asking, not a guess)."""
    if request.headers.get("X-Organiser-Token"):
        limits.mark_wrong_link(request._request)


IDEMPOTENCY_KEY = re.compile(r"[\w-]{8,64}", re.ASCII)


def idempotency_key(request: Request, what: str) -> str:
    """The request's Idempotency-Key, or a 400 saying how to send one (new for each ``what``)."""
    key = str(request.headers.get("Idempotency-Key", ""))
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise BadRequest(
            f"send an Idempotency-Key header: 8 to 64 letters, digits, - or _, new for each {what}",
            "Idempotency-Key",
        )
    return key


def _stored(session: TableSession, number: int) -> None:
    if not session.hands.filter(number=number).exists():
        raise NotFound("No such hand")


def _hand_out(sheet: selectors.ScoreSheet, number: int) -> dict[str, Any]:
    for hand in s.hands_data(sheet):
        if hand["number"] == number:
            return hand
    raise NotFound("No such hand")


def _session_out(request: Request, sheet: selectors.ScoreSheet) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("table", args=[sheet.session.token]))
    return s.session_data(sheet, url)


class Token(APIView):
    authentication_classes: list[type] = []
    throttle_classes = [CodeThrottle, LoginThrottle]

    @extend_schema(
        auth=[],
        request=s.TokenIn,
        responses={
            200: inline_serializer("TokenOut", {"token": serializers.CharField()}),
            400: ErrorShape,
            401: OpenApiResponse(ErrorShape, "No such account, or the wrong password."),
            **WRITE_RESPONSES,
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        """An organiser account's API token, for ``Authorization: Token <token>``. Accounts
        are made by the site's admin (/admin/, or ``manage.py createsuperuser``)."""
        data = valid(s.TokenIn, request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise BadCredentials("No such account, or the wrong password.")
        token, _ = AuthToken.objects.get_or_create(user=user)
        return Response({"token": token.key})


def _worked_examples() -> list[OpenApiExample]:
    """The session documents of docs/examples, as examples of what the score endpoint takes."""
    examples = []
    for path in sorted((settings.BASE_DIR / "docs" / "examples").glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        game = scoring.GAMES.get(document.get("game"))
        summary = f"{game.label}: {path.stem}" if game else path.stem
        examples.append(OpenApiExample(path.stem, document, summary=summary, request_only=True))
    return examples


WORKED_EXAMPLES = _worked_examples()


class Games(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(responses={200: s.GameOut(many=True)}, tags=["engine"])
    def get(self, request: Request) -> Response:
        """The games the ledger scores, with the player counts and options each allows."""
        return Response(s.game_data())


class Score(APIView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        request=SessionShape,
        responses={200: ScoreShape, 400: ErrorShape, **WRITE_RESPONSES},
        tags=["engine"],
        examples=[
            *WORKED_EXAMPLES,
            OpenApiExample(
                "Refused: a score that is not a whole number",
                response_only=True,
                status_codes=["400"],
                value={
                    "error": "Bob's score must be a whole number, 0 or more, not -3",
                    "path": "hands[0].results.Bob.pips",
                    "errors": [
                        {
                            "error": "Bob's score must be a whole number, 0 or more, not -3",
                            "path": "hands[0].results.Bob.pips",
                        }
                    ],
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        """Score a session document (CONTRACT.md), as `python -m scoring` does. Nothing is
        stored. At most `MOST_HANDS_PER_REQUEST` hands (2,000); a request is counted against
        the write limit once, and once more for every 100 hands it asks to score."""
        hands = request.data.get("hands") if isinstance(request.data, dict) else None
        count = len(hands) if isinstance(hands, list) else 0
        if count > settings.MOST_HANDS_PER_REQUEST:
            raise BadRequest(
                f"at most {settings.MOST_HANDS_PER_REQUEST} hands in one request, not {count}: "
                "score a longer session in parts, or on your own machine with python -m scoring",
                "hands",
            )
        charge_by_cost(request, self, count // HANDS_PER_WRITE)
        return Response(scoring.score(request.data))


class Players(APIView):
    # Names are not published: an organiser account sees the names at its own tables only.
    permission_classes = [IsAuthenticated]
    throttle_classes = [CodeThrottle]

    @extend_schema(
        responses={
            200: s.NameList,
            401: OpenApiResponse(ErrorShape, "Only an organiser account (Authorization: Token)."),
            **CODE_RESPONSES,
        },
        tags=["sessions"],
    )
    def get(self, request: Request) -> Response:
        """The names at the tables your organiser account started (the first 200), as the
        new-table form suggests them to you when you are signed in."""
        return Response(selectors.names_at_tables_of(request.user))


class Sessions(APIView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        responses={200: s.SessionListOut(many=True), 401: ErrorShape, **WRITE_RESPONSES},
        tags=["sessions"],
    )
    def get(self, request: Request) -> Response:
        """The tables your organiser account created, newest first (at most 500)."""
        if not request.user.is_authenticated:
            raise NotAuthenticated
        tables = TableSession.objects.filter(owner=request.user).with_seats()
        return Response(
            [
                {
                    "token": table.token,
                    "game": table.game,
                    "seating": table.seating,
                    "locked": table.locked,
                    "created": table.created,
                }
                for table in tables[:500]
            ]
        )

    @extend_schema(
        parameters=[START_KEY],
        request=s.SessionIn,
        responses={
            201: s.CreatedSessionOut,
            400: ErrorShape,
            401: ErrorShape,
            404: OpenApiResponse(ErrorShape, "No such group: check its token."),
            422: OpenApiResponse(ErrorShape, "This key started a table asked for differently."),
            **WRITE_RESPONSES,
        },
        tags=["sessions"],
    )
    def post(self, request: Request) -> Response:
        """Start a table, once per Idempotency-Key. Anyone may, as on the web; with an
        organiser account's token the table is yours (you hold its organiser's rights without
        the organiser token). A group's table takes the group's usual options unless it names
        its own."""
        key = idempotency_key(request, "table") if "Idempotency-Key" in request.headers else ""
        data = valid(s.SessionIn, request.data)
        seating = data["seating"]
        first = data.get("first") or (seating[0] if seating else "")
        start: dict[str, Any] = {
            "game": data["game"],
            "seating": seating,
            "first": first,
            "owner": request.user if request.user.is_authenticated else None,
            "ends_at": s.time_end(data),
            "idempotency_key": key,
            "sender": rights.sender(request._request, request.user),
            "asked": data,
        }
        if "group" in data:  # as the group's page starts one
            group = group_selectors.group_by_token(data["group"])
            session = group_services.table_start(group=group, options=data.get("options"), **start)
        else:
            session = services.session_create(options=data.get("options", {}), **start)
        sheet = selectors.score_sheet(selectors.session_by_token(session.token))
        body = {**_session_out(request, sheet), "organiser_token": session.organiser_token}
        return Response(body, status=201)


class SessionDetail(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[TOKEN], responses={200: s.SessionOut, **CODE_RESPONSES}, tags=["sessions"]
    )
    def get(self, request: Request, token: str) -> Response:
        """The table: seating, who leads next, standings and the settle-up."""
        return Response(_session_out(request, selectors.score_sheet(_session(token))))

    def get_throttles(self) -> list[Any]:
        if self.request.method == "DELETE":  # a write: counted as writes are
            return [CodeThrottle(), WriteThrottle()]
        return super().get_throttles()

    @extend_schema(
        parameters=[TOKEN, ORGANISER],
        responses={
            204: None,
            409: OpenApiResponse(
                ErrorShape, "The table has hands, or is a tournament's: it is kept."
            ),
            **ORGANISER_RESPONSES,
        },
        tags=["sessions"],
    )
    def delete(self, request: Request, token: str) -> Response:
        """Remove a table that has no hands (one started by mistake, a stray play again).
        Organiser. One with hands, voided ones too, or a tournament's is kept (409)."""
        session = _session(token)
        _require_organiser(request, session)
        services.table_remove(session=session)
        return Response(status=204)


class SessionLock(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[TOKEN, ORGANISER],
        request=s.LockIn,
        responses={200: s.SessionOut, 400: ErrorShape, **ORGANISER_RESPONSES},
        tags=["sessions"],
    )
    def post(self, request: Request, token: str) -> Response:
        """Lock the table (no more hands, corrections or voids) or open it again. Organiser."""
        session = _session(token)
        _require_organiser(request, session)
        data = valid(s.LockIn, request.data)
        services.table_lock(session=session, locked=data["locked"])
        return Response(_session_out(request, selectors.score_sheet(session)))


class SessionEnds(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[TOKEN, ORGANISER],
        request=s.EndsIn,
        responses={
            200: s.SessionOut,
            400: ErrorShape,
            423: OpenApiResponse(ErrorShape, "The organiser locked the table."),
            **ORGANISER_RESPONSES,
        },
        tags=["sessions"],
        examples=[
            OpenApiExample(
                "Raise the target to play on",
                {"play_to": 600, "hands": None},
                request_only=True,
            ),
            OpenApiExample(
                "Refused: an end before the hands already played",
                {
                    "error": "the game is over: a total reached 60, and Anna won. "
                    "Raise the target to play on",
                    "path": "hands[2]",
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def put(self, request: Request, token: str) -> Response:
        """Set where the game ends: ``play_to`` (a total score), ``hands`` (a number of dealt
        hands), both, or neither (null): to raise the target and play on, say; and by time,
        ``minutes`` from now or ``ends_at`` (left out: as it was; null: no time limit). Refused
        if the hands already played would have ended it sooner. Organiser."""
        session = _session(token)
        _require_organiser(request, session)
        data = valid(s.EndsIn, request.data)
        services.table_ends(
            session=session,
            play_to=data["play_to"],
            hands=data["hands"],
            ends_at=s.time_end(data, session.ends_at),
        )
        return Response(_session_out(request, selectors.score_sheet(session)))


class Shared(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("read_token", str, OpenApiParameter.PATH, description="Read-only.")
        ],
        responses={200: s.SharedSessionOut, **CODE_RESPONSES},
        tags=["sessions"],
    )
    def get(self, request: Request, read_token: str) -> Response:
        """What a read-only link shows: the table without its join token."""
        sheet = selectors.score_sheet(selectors.session_by_read_token(read_token))
        return Response(s.shared_data(sheet))


PAGE_SIZE = 100  # hands or changes in one answer of a list
PAGE = OpenApiParameter(
    "page",
    {"type": "integer", "minimum": 1},
    OpenApiParameter.QUERY,
    required=False,
    description=f"Lists come {PAGE_SIZE} items a page, page 1 first; the Link header (RFC 8288) "
    "gives the next and previous pages, X-Total-Count the number of items.",
)


BAD_PAGE = OpenApiResponse(ErrorShape, "A page that is not one whole number from 1.")


def paged(request: Request, items: list[Any]) -> Response:
    """One page of ``items`` (``?page=N``, from 1), with Link (rel next, prev) and
    X-Total-Count headers, as a list: the same shape as before lists came in pages."""
    asked = request.query_params.getlist("page")
    if asked and (len(asked) > 1 or not asked[0].isdecimal() or int(asked[0]) < 1):
        raise BadRequest("page: one whole number from 1", "page")
    pages = Paginator(items, PAGE_SIZE)
    page = pages.get_page(asked[0] if asked else 1)
    response = Response(list(page))
    links = [
        f'<{request.build_absolute_uri(f"?page={number}")}>; rel="{rel}"'
        for rel, number, there in (
            ("prev", page.number - 1, page.has_previous()),
            ("next", page.number + 1, page.has_next()),
        )
        if there
    ]
    if links:
        response["Link"] = ", ".join(links)
    response["X-Total-Count"] = str(pages.count)
    return response


class Hands(APIView):
    takes_one_hand = True  # errors point into the posted hand (ledger/api/errors.py)
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[TOKEN, PAGE],
        responses={200: s.HandOut(many=True), 400: BAD_PAGE, **CODE_RESPONSES},
        tags=["hands"],
    )
    def get(self, request: Request, token: str) -> Response:
        """Every hand, voided ones included, with what it settled."""
        return paged(request, s.hands_data(selectors.score_sheet(_session(token))))

    @extend_schema(
        parameters=[TOKEN, KEY],
        request=s.HandIn,
        responses={
            201: s.HandOut,
            200: OpenApiResponse(s.HandOut, "A retry: the hand its first submission stored."),
            400: ErrorShape,
            409: OpenApiResponse(s.ConflictOut, "Another phone recorded this hand first."),
            422: OpenApiResponse(s.ConflictOut, "This key was used for a different hand."),
            423: OpenApiResponse(ErrorShape, "The organiser locked the table."),
            **CODE_RESPONSES,
            **WRITE_RESPONSES,
        },
        tags=["hands"],
    )
    def post(self, request: Request, token: str) -> Response:
        """Record the next hand, exactly once (see Idempotency-Key)."""
        session = _session(token)
        key = idempotency_key(request, "hand")
        data = valid(s.HandIn, request.data)
        recorded = services.hand_record(
            session=session,
            number=data["number"],
            data=data["hand"],
            checked=checks.sent(session, data["number"], data["hand"]),  # the engine, once
            device=data["device"],
            idempotency_key=key,
        )
        body = {**s.stored_hand(recorded.hand), "result": s.settled(recorded.played)}
        return Response(body, status=200 if recorded.replayed else 201)


class HandDetail(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]
    takes_one_hand = True  # errors point into the corrected hand (ledger/api/errors.py)

    @extend_schema(
        parameters=[TOKEN, NUMBER], responses={200: s.HandOut, **CODE_RESPONSES}, tags=["hands"]
    )
    def get(self, request: Request, token: str, number: int) -> Response:
        """One hand and what it settled."""
        return Response(
            _hand_out(selectors.score_sheet(_session(token), latest=True, number=number), number)
        )

    @extend_schema(
        parameters=[TOKEN, NUMBER],
        request=s.CorrectionIn,
        responses={**HAND_CHANGED, **CODE_RESPONSES, **WRITE_RESPONSES},
        tags=["hands"],
    )
    def put(self, request: Request, token: str, number: int) -> Response:
        """Correct a hand: send the whole hand as it should be, and the version you read."""
        session = _session(token)
        data = valid(s.CorrectionIn, request.data)
        _stored(session, number)
        services.hand_correct(
            session=session,
            number=number,
            data=data["hand"],
            version=data["version"],
            device=data["device"],
        )
        return Response(
            _hand_out(selectors.score_sheet(session, latest=True, number=number), number)
        )


class HandVoid(APIView):
    throttle_classes = [CodeThrottle, WriteThrottle]

    @extend_schema(
        parameters=[TOKEN, NUMBER, ORGANISER],
        request=s.VoidIn,
        responses={**HAND_CHANGED, **ORGANISER_RESPONSES},
        tags=["hands"],
    )
    def post(self, request: Request, token: str, number: int) -> Response:
        """Void a hand: it stays in the history and counts for nothing. Organiser."""
        session = _session(token)
        _require_organiser(request, session)
        data = valid(s.VoidIn, request.data)
        _stored(session, number)
        services.hand_void(
            session=session, number=number, version=data["version"], device=data["device"]
        )
        return Response(
            _hand_out(selectors.score_sheet(session, latest=True, number=number), number)
        )


class History(APIView):
    throttle_classes = [CodeThrottle]

    @extend_schema(
        parameters=[TOKEN, PAGE],
        responses={200: s.ChangeOut(many=True), 400: BAD_PAGE, **CODE_RESPONSES},
        tags=["hands"],
    )
    def get(self, request: Request, token: str) -> Response:
        """Every change to the table's hands, oldest first: recorded, corrected, voided."""
        return paged(request, [s.change_data(c) for c in selectors.changes(_session(token))])


class Export(Download):
    @extend_schema(
        parameters=[
            TOKEN,
            OpenApiParameter(
                "kind",
                str,
                OpenApiParameter.PATH,
                enum=list(table_exports.EXPORTS),
                description="docs/exports.md",
            ),
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, **CODE_RESPONSES},
        tags=["sessions"],
    )
    def get(self, request: Request, token: str, kind: str) -> HttpResponseBase:
        """The table's hands, payments, settle-up or totals as CSV (UTF-8 with BOM;
        docs/exports.md)."""
        return table_exports.response(_session(token), kind)
