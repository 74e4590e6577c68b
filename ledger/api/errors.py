"""Every API error is one JSON object, ``{"error": ..., "path": ...}``, as in CONTRACT.md.

``path`` says where the problem is (``hands[1].results.Bob.pips``, ``number``, a header's
name), or is empty. Conflicts add ``hand``: the hand as it is stored now.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ledger.api.serializers import stored_hand
from ledger.api.shapes import ErrorShape
from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.links import NoSuchLink
from ledger.tables import services
from ledger.web import limits
from scoring import ScoringError


class ApiError(APIException):
    """An error with a path: raised by the API's own checks."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class BadRequest(ApiError):
    status_code = status.HTTP_400_BAD_REQUEST


class Forbidden(ApiError):
    status_code = status.HTTP_403_FORBIDDEN


class BadCredentials(ApiError):
    status_code = status.HTTP_401_UNAUTHORIZED


def _in_hand(path: str) -> str:
    return _HAND_INDEX.sub("hand", path, count=1)


_HAND_INDEX = re.compile(r"^hands\[\d+\]")


def _error(
    message: str, path: str = "", errors: list[tuple[str, str]] | None = None, **extra: Any
) -> dict[str, Any]:
    """The API's error object: the first problem, then ``errors``, all of them (just this one
    unless given)."""
    found = errors or [(str(message), path)]
    listed = [{"error": error, "path": where} for error, where in found]
    return {"error": str(message), "path": path, "errors": listed, **extra}


def _all(detail: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every message in DRF's nested error detail, each with the JSON path leading to it."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key in ("non_field_errors", "detail"):
                yield from _all(value, path)
            elif isinstance(key, int):  # an item of a list field
                yield from _all(value, f"{path}[{key}]")
            else:
                yield from _all(value, f"{path}.{key}" if path else str(key))
    elif isinstance(detail, list):
        nested = any(isinstance(item, dict | list) for item in detail)
        for index, value in enumerate(detail):
            if value:
                yield from _all(value, f"{path}[{index}]" if nested else path)
    else:
        yield str(detail), path


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, NoSuchLink):
        limits.mark_wrong_link(context["request"]._request)  # for the guess limit's middleware
    if isinstance(exc, ScoringError):
        # A view that takes one hand says where in it: "hand.results.Bob.pips", not the hand's
        # place in the whole table ("hands[41]...") that the engine checked it in.
        where = _in_hand if getattr(context.get("view"), "takes_one_hand", False) else str
        errors = [(error.message, where(error.path)) for error in exc.errors]
        return Response(_error(exc.message, where(exc.path), errors), status=400)
    if isinstance(exc, services.HandAlreadyRecorded):
        message = f"hand {exc.hand.number} is already recorded: here it is"
        return Response(_error(message, "number", hand=stored_hand(exc.hand)), status=409)
    if isinstance(exc, services.KeyReused):
        message = "this Idempotency-Key was already used for a different hand"
        return Response(_error(message, "Idempotency-Key", hand=stored_hand(exc.hand)), status=422)
    if isinstance(exc, services.StartKeyReused):
        message = "this Idempotency-Key already started a table asked for differently"
        return Response(_error(message, "Idempotency-Key"), status=422)
    if isinstance(exc, services.HandVoided):
        message = f"hand {exc.hand.number} is voided: it can no longer be changed"
        return Response(_error(message, "number", hand=stored_hand(exc.hand)), status=409)
    if isinstance(exc, services.StaleVersion):
        message = f"hand {exc.hand.number} has changed since your version: here it is now"
        return Response(_error(message, "version", hand=stored_hand(exc.hand)), status=409)
    if isinstance(exc, event_services.RoundStarted):
        return Response(_error(str(exc)), status=409)
    if isinstance(exc, event_services.Refused):
        return Response(_error(str(exc)), status=400)
    if isinstance(exc, group_services.AlreadyVoided):
        return Response(_error(exc.message), status=409)
    if isinstance(exc, group_services.Refused):
        return Response(_error(exc.message, exc.field), status=400)
    if isinstance(exc, group_services.KeyReused):
        message = "this Idempotency-Key was already used for a different payment"
        return Response(_error(message, "Idempotency-Key"), status=422)
    if isinstance(exc, services.Kept):  # a table with hands, or a tournament's, is not removed
        return Response(_error(exc.message), status=409)
    if isinstance(exc, services.TableLocked):
        message = "this table is locked by its organiser: nothing was saved"
        return Response(_error(message), status=423)
    response = drf_exception_handler(exc, context)
    if response is not None:
        errors = list(_all(response.data)) or [(str(exc), "")]
        message, path = errors[0]
        path = getattr(exc, "path", path)
        response.data = _error(message, path, [(message, path), *errors[1:]])
    return response


# Responses the schema declares beside each operation's own.
CODE_RESPONSES = {
    404: OpenApiResponse(ErrorShape, "No such table (or hand): check the token."),
    429: OpenApiResponse(ErrorShape, "Too many requests, or too many wrong tokens, from here."),
}
WRITE_RESPONSES = {429: CODE_RESPONSES[429]}
ORGANISER_RESPONSES = {
    403: OpenApiResponse(ErrorShape, "Only the table's organiser can do this."),
    **CODE_RESPONSES,
}
