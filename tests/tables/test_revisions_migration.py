"""Migration 0021 gives events and groups a revision of their own, which their pages' marks have
(ledger.tables.selectors.marks). Run on rows of the schema before it (a tournament's round
played at two tables, a group's table played and a payment, made by the app and taken back to
0020), every total and settle-up, every standing and balance, and every export is what it was,
to the cent; each revision starts at 0, and the next change raises it. Undone, the same again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.events import exports as event_exports
from ledger.events import selectors as event_selectors
from ledger.events import services as event_services
from ledger.groups import exports as group_exports
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Event, Group, TableSession
from ledger.tables import exports, selectors
from tests.events.test_events import play
from tests.migrating import once

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): a migration run on rows of the schema before it.
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0020_hands_by_player_id")
EIGHT = ["Anna", "Bob", "Celine", "Dominic", "Ewa", "Fang", "Gao", "Hui"]


def migrate(target: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _download(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def everything(event: int, group: int) -> dict[str, Any]:
    """What the players see of the event and the group: each table's totals and settle-up and
    every export of theirs, the standings, the balances, and the event's and group's exports."""
    tables = TableSession.objects.filter(pk__in=_tables(event, group)).order_by("pk")
    seen: dict[str, Any] = {}
    for table in tables:
        sheet = selectors.rescored_sheet(table)
        seen[f"table {table.pk}"] = (sheet.result.totals, sheet.result.settle_up)
        for kind in exports.EXPORTS:
            seen[f"table {table.pk} {kind}"] = _download(exports.response(table, kind))
    cup, circle = Event.objects.get(pk=event), Group.objects.get(pk=group)
    rows = event_selectors.standings(cup).rows
    seen["standings"] = [(row.name, row.net, row.points, row.hands_won) for row in rows]
    seen["balances"] = group_selectors.ledger(circle).money
    for kind in event_exports.EVENT_EXPORTS:
        seen[f"event {kind}"] = _download(event_exports.event_response(cup, kind))
    for kind in group_exports.EXPORTS:
        seen[f"group {kind}"] = _download(group_exports.response(circle, kind))
    return seen


def _tables(event: int, group: int) -> list[int]:
    return list(
        TableSession.objects.filter(round__event=event).values_list("pk", flat=True)
    ) + list(TableSession.objects.filter(group=group).values_list("pk", flat=True))


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """The event and the group as the app made them, taken back to the schema before 0021 and
    migrated again, once for the module's tests (tests.migrating); what they showed before."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    cup = event_services.event_create(
        name="Cup", game="ce-deng", options={"stake": "2"}, rounds=2, seed="cup"
    )
    for name in EIGHT:
        event_services.entry_add(event=cup, name=name, organiser=True)
    seated = event_services.round_seat(event=cup)
    event_services.round_begin(round=seated)
    for table in seated.tables.all():
        play(table, 2, 12, 34, 18)
        play(table, 40, 0, 7, 21)
    circle = group_services.group_create(name="Thursday", game="ce-deng", options={"stake": "1"})
    table = group_services.table_start(group=circle, seating=EIGHT[:4], first="Celine")
    play(table, 5, 16, 9, 30)
    group_services.payment_record(group=circle, payer="Bob", payee="Anna", amount="5.50")
    shown = everything(cup.pk, circle.pk)
    try:
        migrate([BEFORE])
        migrate()
        yield cup.pk, circle.pk, shown
    finally:
        migrate()


def test_every_total_standing_balance_and_export_is_what_it_was_to_the_cent(migrated, db):
    event, group, shown = migrated

    assert everything(event, group) == shown
    assert Event.objects.get(pk=event).revision == 0
    assert Group.objects.get(pk=group).revision == 0


def test_the_marks_have_the_revisions_and_the_next_change_raises_them(migrated, db):
    event, group, _ = migrated
    cup, circle = Event.objects.get(pk=event), Group.objects.get(pk=group)
    marks = event_selectors.mark(cup), group_selectors.mark(circle)
    assert all(mark.endswith(".0") for mark in marks)

    event_services.entry_drop(event=cup, name="Anna")
    group_services.payment_record(group=circle, payer="Anna", payee="Bob", amount="1")

    assert event_selectors.mark(cup) != marks[0] and event_selectors.mark(cup).endswith(".1")
    assert group_selectors.mark(circle) != marks[1] and group_selectors.mark(circle).endswith(".1")


def test_undone_and_redone_every_total_is_the_same(migrated, transactional_db):
    event, group, shown = migrated
    migrate([BEFORE])
    old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
    assert "revision" not in {f.name for f in old.get_model("ledger", "Event")._meta.fields}

    migrate()
    assert everything(event, group) == shown
