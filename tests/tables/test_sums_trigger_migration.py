"""Migration 0041 (SQLite refuses a row past what it can add up) applies on a database with a
table near that limit, keeps every row, sum and export as they were, and refuses the hand that
would pass it, as the services refused it before (they read the sum themselves then)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from ledger.models import Hand, Result
from ledger.tables import exports, money
from tests.migrating import migrate
from tests.tables.test_exact_sums import _hand_two, _near_the_most

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the trigger is SQLite's: PostgreSQL sums as numeric"
)

BEFORE = [("ledger", "0040_insert_only_history")]


def _kept(table) -> tuple[object, ...]:
    rows = sorted(Result.objects.filter(session=table).values_list("pk", "player", "net"))
    totals = b"".join(exports.response(table, "totals", words=True).streaming_content)
    return rows, money.sums([table.pk]), totals


def _triggers() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_amount_and_refuses_the_hand_past_64_bits(client):
    with transaction.atomic():  # its rows written behind the services settle together
        table = _near_the_most(client)
    migrate(BEFORE)
    try:
        assert "ledger_result_within_64_bits" not in _triggers()
        kept = _kept(table)

        migrate()

        assert "ledger_result_within_64_bits" in _triggers()
        assert _kept(table) == kept
        refused = _hand_two(client, table)
        assert refused.status_code == 400
        assert "start a new table to play on" in refused.json()["error"]
        assert not Hand.objects.filter(session=table, number=2).exists()
        assert _kept(table) == kept
    finally:
        migrate()
