"""Every API error is one JSON object, ``{"error": ..., "path": ...}``, as in CONTRACT.md.

``path`` says where the problem is (``hands[1].results.Bob.pips``, ``number``, a header's
name), or is empty. Conflicts add ``hand``: the hand as it is stored now.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ledger import limits
from ledger.api.serializers import stored_hand
from ledger.api.shapes import ErrorShape
from ledger.events import services as event_services
from ledger.tables import services
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


def _error(message: str, path: str = "", **extra: Any) -> dict[str, Any]:
    return {"error": str(message), "path": path, **extra}


def _first(detail: Any, path: str = "") -> tuple[str, str]:
    """The first message in DRF's nested error detail, and the JSON path leading to it."""
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        if key in ("non_field_errors", "detail"):
            return _first(value, path)
        if isinstance(key, int):  # an item of a list field
            return _first(value, f"{path}[{key}]")
        return _first(value, f"{path}.{key}" if path else str(key))
    if isinstance(detail, list):
        if len(detail) == 1 or not isinstance(detail[0], dict | list):
            return _first(detail[0], path)
        index, value = next((i, v) for i, v in enumerate(detail) if v)
        return _first(value, f"{path}[{index}]")
    return str(detail), path


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, limits.NoSuchLink):
        limits.mark_wrong_link(context["request"]._request)  # for the guess limit's middleware
    if isinstance(exc, ScoringError):
        return Response(_error(exc.message, exc.path), status=400)
    if isinstance(exc, services.HandAlreadyRecorded):
        message = f"hand {exc.hand.number} is already recorded: here it is"
        return Response(_error(message, "number", hand=stored_hand(exc.hand)), status=409)
    if isinstance(exc, services.KeyReused):
        message = "this Idempotency-Key was already used for a different hand"
        return Response(_error(message, "Idempotency-Key", hand=stored_hand(exc.hand)), status=422)
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
    if isinstance(exc, services.TableLocked):
        message = "this table is locked by its organiser: nothing was saved"
        return Response(_error(message), status=423)
    response = drf_exception_handler(exc, context)
    if response is not None:
        message, path = _first(response.data)
        response.data = _error(message, getattr(exc, "path", path))
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
