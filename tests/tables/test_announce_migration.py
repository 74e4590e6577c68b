"""Migration 0042 (PostgreSQL announces a table's new revision itself) on rows of the schema
before it: every row, total and export stays as it was, and once applied a raised revision
is heard by a listening connection, which it was not before (the app sent it then)."""

from __future__ import annotations

import pytest
from django.db import connection

from ledger.groups import services as group_services
from ledger.models import Result, TableSession
from ledger.tables import exports, money, services
from tests.groups.test_pages import THREE, hand
from tests.ledger.test_changes import listening  # noqa: F401 - the fixture
from tests.migrating import migrate

pytestmark = pytest.mark.postgresql

BEFORE = [("ledger", "0041_sqlite_sums_within_64_bits")]


def _kept(table: TableSession) -> tuple[object, ...]:
    rows = sorted(Result.objects.filter(session=table).values_list("pk", "player", "net"))
    totals = b"".join(exports.response(table, "totals", words=True).streaming_content)
    hands = b"".join(exports.response(table, "hands", words=True).streaming_content)
    return rows, money.sums([table.pk]), totals, hands


def _triggers() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        return {name for (name,) in cursor.fetchall()}


def test_the_migration_keeps_every_amount_and_announces_revisions_after_it(listening):  # noqa: F811
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    table = group_services.table_start(group=group, seating=THREE, first="Anna")
    services.hand_record(session=table, number=1, data=hand(2, 12, 20))
    services.hand_correct(session=table, number=1, data=hand(12, 2, 20), version=1)
    kept = _kept(table)
    migrate(BEFORE)
    try:
        assert "ledger_table_revised" not in _triggers()
        listening()
        TableSession.objects.filter(pk=table.pk).update(revision=50)
        assert listening() == []  # the schema before: the app announced, not the database

        migrate()

        assert {"ledger_table_revised", "ledger_group_table_started"} <= _triggers()
        table.refresh_from_db()
        assert _kept(table) == kept
        TableSession.objects.filter(pk=table.pk).update(revision=51)
        assert listening() == [f"{table.pk} 51 0 {group.pk}"]
    finally:
        migrate()
