"""The API's JSON parser: every body it cannot take is a 4xx with the error object, never a 500.

DRF's own parser streams the body straight into ``json.load``: a body of any size is read,
JSON nested a thousand deep overflows Python's stack (RecursionError, a 500), and a lone
surrogate (``"\\ud800"``) parses into a string that cannot be written back out as UTF-8.
"""

from __future__ import annotations

import json
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser


class TooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """As ``python -m scoring`` does: a key given twice is refused, not silently dropped."""
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        repeated = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"{repeated!r} is given twice in the same object")
    return dict(pairs)


class JSONParser(BaseParser):
    media_type = "application/json"

    def parse(
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise TooLarge(f"the request body is too large: at most {limit:,} bytes")
        try:
            data = json.loads(
                body.decode("utf-8"),
                parse_constant=_no_constants,
                object_pairs_hook=_no_repeated_keys,
            )
            # A string that cannot be encoded (a lone surrogate) is refused here, once.
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError:
            raise ParseError("the JSON is nested too deeply") from None
        except UnicodeError:
            raise ParseError("the body is not valid UTF-8 text") from None
        except ValueError as error:
            raise ParseError(f"the body is not valid JSON: {error}") from None
        return data
