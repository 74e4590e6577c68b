"""Money as the API writes it (issue 45, item 9): every amount of every answer is a decimal
string with the places it needs and at least two (``"-14.00"``, ``"0.125"``, ``"14.35"``), the
same whatever the database summed it to or the stake was typed with. One function writes it,
one schema field declares it; every answer's amounts go through them.

``POST /api/v1/score`` is the exception: it answers the engine's result document, as
``python -m scoring`` prints it (CONTRACT.md: a JSON number when whole).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.options import OPTION_SPECS

# Two places, more only where they are not zeros ("0.125", never "12.5000").
PATTERN = r"^-?(0|[1-9][0-9]*)\.[0-9]{2}([0-9]*[1-9])?$"

_CENTS = Decimal("0.01")


def money(value: Decimal) -> str:
    """An amount as every answer of the API writes it.

    >>> money(Decimal("14.3500")), money(Decimal("-14")), money(Decimal("0.1250"))
    ('14.35', '-14.00', '0.125')
    """
    short = value.normalize()
    exponent = short.as_tuple().exponent
    if isinstance(exponent, int) and exponent > -2:
        short = short.quantize(_CENTS)
    return format(short if short else abs(short), "f")  # 0.00, not -0.00


@extend_schema_field(
    {
        "type": "string",
        "format": "decimal",
        "pattern": PATTERN,
        "description": 'An amount: a decimal string with at least two places ("-14.00", '
        '"0.125", "14.35").',
        "example": "14.35",
    }
)
class Money(serializers.Field[Decimal, Decimal, str, Any]):
    """An amount in an answer (the serializers of answers describe them; the views write
    them with ``money``)."""

    def to_representation(self, value: Decimal) -> str:
        return money(value)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number", "minimum": 0, "exclusiveMinimum": True},
            {"type": "string", "pattern": r"^[0-9]{0,10}(\.[0-9]{0,4})?$"},
        ],
        "description": "More than 0, at most 4 decimal places: a JSON number or a decimal string "
        '("2", 2, "0.125").',
        "example": "12.50",
    }
)
class MoneyIn(serializers.DecimalField):
    """An amount sent: a JSON number or a decimal string, as clients have always sent them
    (answers write it as a string)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=14, decimal_places=4, **kwargs)


AMOUNT_OPTIONS = tuple(name for name, spec in OPTION_SPECS.items() if spec.amount is not None)


def options_out(options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's, group's or event's options as kept (as they were sent), their amounts
    (``stake``, ``chip``) written as money: the engine read each as a number or a decimal
    string before it was kept."""
    return {
        name: money(Decimal(str(value))) if name in AMOUNT_OPTIONS else value
        for name, value in options.items()
    }


class OptionsOut(serializers.Serializer[dict[str, Any]]):
    """The options as they were sent (docs/contract.md), but for their amounts: money."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {name: Money(required=False) for name in AMOUNT_OPTIONS}


class TransferOut(serializers.Serializer[dict[str, Any]]):
    """A transfer of a settle-up, in an answer (TransferShape of the engine's contract)."""

    # "from" is a Python keyword: the field is named in the mapping below.
    to = serializers.CharField()
    amount = Money()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {"from": serializers.CharField(), **super().get_fields()}


class HandPaymentOut(TransferOut):
    """One payment of a hand, in an answer (PaymentShape of the engine's contract)."""

    multiplier = serializers.IntegerField()
    reason = serializers.CharField()
