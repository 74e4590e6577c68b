"""Rows stored before the rules' fourth revision, migrated (0024), keep every total to the cent:
a Jie Long, Ce Deng or Tsair Deng table, event or group that pays by the stake loses the
``chip`` the engine ignored there and now refuses; one that pays chips keeps it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

import scoring
from ledger.models import Event, Group, Result, TableSession
from ledger.tables import selectors, services, tally
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# The tests that migrate rows of the schema before 0024 run on PostgreSQL alone when one answers
# (postgresql: on SQLite when none does, on both in make test-deep); the engine's refusal asks no
# database.

BEFORE = ("ledger", "0023_session_indexes_in_composite")
IGNORED = {"stake": "0.50", "chip": "5"}  # played pairwise at 0.50: the chip paid nothing
CHIPS = {"payment": "chips", "chip": "5"}


def _leaf() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _money(table: TableSession) -> dict[str, Decimal]:
    rows = Result.objects.filter(hand__session=table).standing()
    return {
        row["player__name"]: row["net"]
        for row in rows.values("player__name").annotate(net=Sum("net"))
    }


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    """Tables played and counted, then given the chip they carried before the fourth revision
    in rows of the schema before 0024 (their tallies counted for those options, as they were),
    then migrated."""
    tables = {}
    for label, game, options in [
        ("ignored", "ce-deng", {"stake": "0.50"}),
        ("chips", "ce-deng", {"payment": "chips", "chip": "5"}),
        ("jie-long", "jie-long", {"stake": "0.50"}),
    ]:
        table = services.session_create(game=game, options=options, seating=SEATING, first="Anna")
        services.hand_record(session=table, number=1, data=plain_hand())
        services.hand_record(session=table, number=2, data=plain_hand(direction="cw", Bob=40))
        tables[label] = table.pk
    before = {
        label: selectors.score_sheet(TableSession.objects.get(pk=pk)).result.totals
        for label, pk in tables.items()
    }
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    for label in ("ignored", "jie-long"):
        row = old.get_model("ledger", "TableSession").objects.get(pk=tables[label])
        options = {**row.options, "chip": "5"}
        kept = {**row.tally, "of": [*row.tally["of"][:2], options, *row.tally["of"][3:]]}
        old.get_model("ledger", "TableSession").objects.filter(pk=row.pk).update(
            options=options, tally=kept
        )
    event = old.get_model("ledger", "Event").objects.create(
        name="Cup", game="tsair-deng", options={"chip": "2"}, rounds=2
    )
    group = old.get_model("ledger", "Group").objects.create(
        name="Tuesdays", game="jie-long", options=IGNORED
    )
    try:
        _leaf()
        yield tables, before, event.pk, group.pk
    finally:
        _leaf()


@pytest.mark.postgresql
def test_a_chip_paying_nothing_is_left_out_and_every_total_stays_to_the_cent(migrated, db):
    tables, before, event, group = migrated
    for label in ("ignored", "jie-long"):
        table = TableSession.objects.get(pk=tables[label])
        assert table.options == {"stake": "0.50"}
        # The tally counted before is still the table's: nothing it paid changed.
        assert tally.current_tally(table) is not None
        totals = selectors.score_sheet(table).result.totals
        assert totals == before[label]
        assert _money(table) == totals.net
    assert Event.objects.get(pk=event).options == {}
    kept = Group.objects.get(pk=group)  # what it plays for is the group's since 0043
    assert (kept.options, kept.plays_for) == ({}, {"stake": "0.50"})


@pytest.mark.postgresql
def test_a_chip_table_keeps_its_chip(migrated, db):
    tables, before, _, _ = migrated
    table = TableSession.objects.get(pk=tables["chips"])
    # 0035 writes in what its declared doubles paid under the rules before the fifth revision.
    assert table.options == {**CHIPS, "doubles": "stake"}
    assert selectors.score_sheet(table).result.totals == before["chips"]


def test_the_engine_refuses_what_the_migration_left_out():
    document = {"game": "ce-deng", "options": IGNORED, "seating": SEATING, "first": "Anna"}
    with pytest.raises(scoring.ScoringError) as refused:
        scoring.parse_session(document)
    assert refused.value.path == "options.chip"
