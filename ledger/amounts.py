"""Amounts of money as the database keeps them: whole ten-thousandths in a 64-bit integer.

SQLite has no exact decimal: a ``DecimalField`` column takes NUMERIC affinity there, its
values are stored as floats, and ``SUM`` adds floats. An integer column sums exactly on both
databases (PostgreSQL sums bigint as numeric), so a table's, a player's or a group's money
is the database's ``SUM`` to the last ten-thousandth. Python code sees a ``Decimal`` with
four places, in and out, sums included; ``readable_amount`` writes one as a person reads it.

``AmountField`` is defined in ledger/migrations/_frozen/amounts_0032.py: migrations 0032 and
0037 record it by its path, and a migration imports nothing of the ledger's but its own
frozen code, so the models keep their amounts in that very class (a new kind of amount would
be a new field and a migration).
"""

from __future__ import annotations

from decimal import Decimal

from ledger.migrations._frozen.amounts_0032 import MOST, PLACES, STEP, AmountField

__all__ = ["MOST", "PLACES", "STEP", "AmountField", "readable_amount"]


def readable_amount(value: Decimal) -> Decimal:
    """An amount or a sum of amounts as money reads: the database gives them with four places
    ("12.5000"), the engine and a division as they come ("12.5"), so neither is what a person
    wants. Whole stays whole, cents keep two places, smaller parts what they need.

    >>> [str(readable_amount(Decimal(v))) for v in ("12.5000", "12.5", "-3.0000", "0.1250", "7E+1")]
    ['12.50', '12.50', '-3', '0.125', '70']
    """
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    short = value.normalize()
    exponent = short.as_tuple().exponent
    return short if isinstance(exponent, int) and exponent <= -2 else short.quantize(_CENTS)


_CENTS = Decimal("0.01")
