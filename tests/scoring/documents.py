"""Builders for session documents, so that each test shows only the numbers it is about."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import pytest

from scoring import ScoringError, score

FOUR = ("Anna", "Bob", "Celine", "Dominic")
THREE = FOUR[:3]
TWO = FOUR[:2]


def session(
    game: str,
    seating: Sequence[str],
    hands: Iterable[Mapping[str, Any]],
    *,
    first: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A session document; keyword arguments become its options."""
    document: dict[str, Any] = {
        "game": game,
        "seating": list(seating),
        "first": first or seating[0],
        "hands": [dict(hand) for hand in hands],
    }
    if options:
        document["options"] = options
    return document


def hand(results: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
    """A played hand. A bare number is that player's pips; a dict is the result as given."""
    return {
        "results": {
            name: {"pips": result} if isinstance(result, int) else dict(result)
            for name, result in results.items()
        },
        **fields,
    }


def special(pips: int, *specials: str) -> dict[str, Any]:
    return {"pips": pips, "specials": list(specials)}


def tiles(*texts: str) -> dict[str, Any]:
    return {"tiles": list(texts)}


def play(
    game: str,
    seating: Sequence[str],
    results: Mapping[str, Any],
    *,
    first: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Score a one-hand session and return that hand of the result document."""
    out = score(session(game, seating, [hand(results)], first=first, **options))
    first_hand: dict[str, Any] = out["hands"][0]
    return first_hand


def money(value: object) -> Decimal:
    """An amount of the result document (a JSON number or a decimal string) as a Decimal."""
    assert not isinstance(value, bool | float), f"amounts are ints or decimal strings: {value!r}"
    return Decimal(str(value))


def nets(out_hand: Mapping[str, Any]) -> dict[str, Decimal]:
    return {name: money(value) for name, value in out_hand["net"].items()}


def paid(out_hand: Mapping[str, Any]) -> set[tuple[str, str, Decimal]]:
    """The payments of a hand as (from, to, amount)."""
    return {(p["from"], p["to"], money(p["amount"])) for p in out_hand["payments"]}


def whole(values: Mapping[str, int]) -> dict[str, Decimal]:
    return {name: Decimal(value) for name, value in values.items()}


def rejected(document: object) -> ScoringError:
    """Score ``document``, which must be rejected with a ScoringError; return the error."""
    with pytest.raises(ScoringError) as caught:
        score(document)
    return caught.value
