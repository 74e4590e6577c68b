"""Amounts of money as the database keeps them: whole ten-thousandths in a 64-bit integer.

SQLite has no exact decimal: a ``DecimalField`` column takes NUMERIC affinity there, its
values are stored as floats, and ``SUM`` adds floats. An integer column sums exactly on both
databases (PostgreSQL sums bigint as numeric), so a table's, a player's or a group's money
is the database's ``SUM`` to the last ten-thousandth. Python code sees a ``Decimal`` with
four places, in and out, sums included.

``AmountField`` is defined in ledger/migrations/_frozen/amounts_0032.py: migrations 0032 and
0037 record it by its path, and a migration imports nothing of the ledger's but its own
frozen code, so the models keep their amounts in that very class (a new kind of amount would
be a new field and a migration).
"""

from ledger.migrations._frozen.amounts_0032 import MOST, PLACES, STEP, AmountField

__all__ = ["MOST", "PLACES", "STEP", "AmountField"]
