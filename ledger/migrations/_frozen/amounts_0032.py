# A frozen copy of ledger/amounts.py at commit d9af516 (migration 0032), for the migrations and
# the models that keep amounts in it (ledger/amounts.py names it): never edit it
# (ledger/migrations/_frozen/__init__.py says why).
"""Amounts of money as the database keeps them: whole ten-thousandths in a 64-bit integer.

SQLite has no exact decimal: a ``DecimalField`` column takes NUMERIC affinity there, its
values are stored as floats, and ``SUM`` adds floats. An integer column sums exactly on both
databases (PostgreSQL sums bigint as numeric), so a table's, a player's or a group's money
is the database's ``SUM`` to the last ten-thousandth. Python code sees a ``Decimal`` with
four places, in and out, sums included.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core import validators
from django.db import models
from django.utils.functional import cached_property

PLACES = 4
# The most a bigint holds, as an amount (922,337,203,685,477.5807): a row, and any sum of
# rows, above it cannot be stored or summed on SQLite.
MOST = Decimal(2**63 - 1).scaleb(-PLACES)
STEP = Decimal(1).scaleb(-PLACES)  # 0.0001: what an amount reads with, 0 as "0.0000"


class AmountField(models.DecimalField):  # type: ignore[type-arg]
    """A ``Decimal`` of at most four places, stored as a whole number of ten-thousandths.

    A ``SUM`` of the column comes back through ``from_db_value`` as an exact ``Decimal``:
    Django converts an aggregate by its output field, which for ``Sum("net")`` is this one.
    Arithmetic on the column in SQL counts in ten-thousandths: a number added to it there must
    be one too, ``F("net") + Value(Decimal(1), output_field=AmountField())``, not ``+ 1``
    (nothing in the app does such arithmetic; tests that alter rows behind its back do).
    """

    description = "Amount of money (stored as ten-thousandths)"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # 15 whole digits and 4 places, within ``MOST`` (the validators below).
        kwargs.setdefault("max_digits", 19)
        kwargs.setdefault("decimal_places", PLACES)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("max_digits") == 19:
            del kwargs["max_digits"]
        if kwargs.get("decimal_places") == PLACES:
            del kwargs["decimal_places"]
        return name, path, args, kwargs

    def get_internal_type(self) -> str:
        return "BigIntegerField"

    @cached_property
    def validators(self) -> list[Any]:
        return [
            *super().validators,
            validators.MinValueValidator(-MOST),
            validators.MaxValueValidator(MOST),
        ]

    def get_prep_value(self, value: Any) -> Any:
        amount = super().get_prep_value(value)
        if amount is None or hasattr(amount, "as_sql"):
            return amount
        units = amount.scaleb(PLACES)
        if units != units.to_integral_value():
            raise ValueError(f"{amount} has more than {PLACES} decimal places")
        return int(units)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        return value if prepared else self.get_prep_value(value)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Decimal | None:
        # An int from a row or SQLite's SUM; a Decimal from PostgreSQL's SUM of bigint.
        return None if value is None else Decimal(value).scaleb(-PLACES).quantize(STEP)
