"""SQLite refuses a result row that would take a player's rows at one table past what it can add
up (issue 46: a save makes one query less).

SQLite sums 64-bit integers and raises past them, where PostgreSQL sums as numeric. So each
player's rows at a table, taken without their signs (a reversal as much as the row it takes
back), stay within the most a 64-bit integer holds (amounts.MOST, in ten-thousandths), and their
sum in any order does too. The services read that sum before every save until now; this trigger
checks it on every insert instead, whoever inserts. Its sum cannot pass 64 bits itself: the rows
already there are within the most, and the new row is compared with what is left of it.
"""

from django.db import migrations

from ledger.migrations._on_postgresql import OnSQLite

MOST_UNITS = 2**63 - 1  # amounts.MOST in the ten-thousandths an amount is stored as

WITHIN = f"""
CREATE TRIGGER ledger_result_within_64_bits BEFORE INSERT ON ledger_result
WHEN (SELECT coalesce(sum(abs(net)), 0) FROM ledger_result
      WHERE session_id = NEW.session_id AND player_id = NEW.player_id)
     > {MOST_UNITS} - abs(NEW.net)
BEGIN
    SELECT RAISE(ABORT, 'ledger_result_within_64_bits: a player''s amounts at one table would pass 64 bits');
END;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0040_insert_only_history"),
    ]

    operations = [
        OnSQLite(WITHIN, "DROP TRIGGER ledger_result_within_64_bits;"),
    ]
