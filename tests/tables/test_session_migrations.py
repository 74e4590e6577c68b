"""Migrations 0025 (a table's start key), 0026 (money kept from deletion) and 0027 (the
balance trigger) run on rows of the schema before them: every total, group balance and export
stays to the cent."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Group, TableSession
from ledger.tables import selectors, services
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): migrations run on rows of the schema before them; 0027's balance
# trigger is PostgreSQL's own (SQLite's check before its commit is the code's, not a migration's).
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0024_drop_ignored_chip")


def _migrate(target: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _money() -> tuple[dict, dict]:
    tables = {
        table.pk: selectors.score_sheet(table).result.totals for table in TableSession.objects.all()
    }
    ledgers = {}
    for group in Group.objects.all():
        ledger = group_selectors.ledger(group)
        ledgers[group.pk] = (ledger.money, ledger.points, ledger.hands, ledger.won)
    return tables, ledgers


def test_tables_and_groups_keep_every_total_through_the_migrations(transactional_db, client):
    group = group_services.group_create(name="Tuesdays", game="ce-deng", options={"stake": "0.25"})
    lone = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    grouped = services.session_create(
        game="ce-deng", options={"stake": "0.25"}, seating=SEATING, first="Anna", group=group
    )
    for table in (lone, grouped):
        services.hand_record(session=table, number=1, data=plain_hand())
        services.hand_record(session=table, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_void(session=lone, number=2, version=1)
    before = _money()
    export = b"".join(
        client.get(f"/api/v1/sessions/{lone.token}/export/hands.csv").streaming_content
    )
    try:
        _migrate([BEFORE])  # the rows as the schema before 0025 holds them
        _migrate()
        assert _money() == before
        assert (
            b"".join(
                client.get(f"/api/v1/sessions/{lone.token}/export/hands.csv").streaming_content
            )
            == export
        )
    finally:
        _migrate()
