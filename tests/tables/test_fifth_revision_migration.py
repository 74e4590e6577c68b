"""Rows stored before the rules' fifth revision, migrated (0036), keep every total to the cent:
a Ce Deng table, event or group that pays chips keeps its declared doubles paid by the stake
(``doubles: stake`` written in); a Jie Long or Tsair Deng one that pays chips loses the stake
that paid nothing there; one that pays by the stake is left as it was."""

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

# Depends on the database: a migration run on rows of the schema before it.
pytestmark = pytest.mark.both_databases

BEFORE = ("ledger", "0035_start_key_sender")
PINNED = "0036_pin_chip_doubles"
# Celine's 8 doubles: the others hold the rest of the deck (tests/scoring/test_ce_deng.py).
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}
# As the tables were played: what 0036 writes in, and what the schema before it stored.
PLAYED = {
    "ce-deng chips": ("ce-deng", {"payment": "chips", "chip": "0.50", "doubles": "stake"}),
    "ce-deng chips, stake": (
        "ce-deng",
        {"payment": "chips", "chip": "2", "stake": "0.25", "doubles": "stake"},
    ),
    "ce-deng pairwise": ("ce-deng", {"stake": "0.50"}),
    "jie-long chips": ("jie-long", {"payment": "chips", "chip": "0.35"}),
}


def _migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target)


def _leaf() -> None:
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


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
    """Tables played (a declared doubles hand at each Ce Deng one) and counted, then taken back
    to the schema before 0036, where they stand as they were stored: a Jie Long chips table
    given the stake it carried, an event and a group of the old options; then migrated."""
    tables = {}
    for label, (game, options) in PLAYED.items():
        table = services.session_create(game=game, options=options, seating=SEATING, first="Anna")
        services.hand_record(session=table, number=1, data=plain_hand())
        if game == "ce-deng":
            services.hand_record(session=table, number=2, data=DECLARED)
        tables[label] = table.pk
    before = {
        label: selectors.rescored_sheet(TableSession.objects.get(pk=pk)).result.totals
        for label, pk in tables.items()
    }
    rows = {label: _money(TableSession.objects.get(pk=pk)) for label, pk in tables.items()}
    _migrate([BEFORE])
    old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
    stored = {
        label: old.get_model("ledger", "TableSession").objects.get(pk=pk).options
        for label, pk in tables.items()
    }
    row = old.get_model("ledger", "TableSession").objects.get(pk=tables["jie-long chips"])
    options = {**row.options, "stake": "3"}
    kept = {**row.tally, "of": [*row.tally["of"][:2], options, *row.tally["of"][3:]]}
    old.get_model("ledger", "TableSession").objects.filter(pk=row.pk).update(
        options=options, tally=kept
    )
    event = old.get_model("ledger", "Event").objects.create(
        name="Cup", game="ce-deng", options={"payment": "chips", "chip": "0.50"}, rounds=2
    )
    group = old.get_model("ledger", "Group").objects.create(
        name="Tuesdays", game="tsair-deng", options={"payment": "chips", "stake": "2"}
    )
    try:
        _leaf()
        yield tables, before, rows, stored, event.pk, group.pk
    finally:
        _leaf()


def test_the_schema_before_kept_no_doubles_option(migrated, db):
    _, _, _, stored, _, _ = migrated
    assert stored["ce-deng chips"] == {"payment": "chips", "chip": "0.50"}
    assert stored["ce-deng chips, stake"] == {"payment": "chips", "chip": "2", "stake": "0.25"}


def test_every_table_keeps_what_it_paid_to_the_cent(migrated, db):
    tables, before, rows, _, _, _ = migrated
    for label, (_, options) in PLAYED.items():
        table = TableSession.objects.get(pk=tables[label])
        assert table.options == options, label
        # The tally counted before is still the table's: nothing it paid changed.
        assert tally.current_tally(table) is not None, label
        totals = selectors.rescored_sheet(table).result.totals
        assert totals == before[label], label
        assert _money(table) == rows[label] == totals.net, label
    # The audit's table: at 0.50 a chip, Celine's declared doubles paid her 2 x 1 x 159 in money.
    chips = TableSession.objects.get(pk=tables["ce-deng chips"])
    assert selectors.rescored_sheet(chips).result.hands[1].net["Celine"] == 318


def test_events_and_groups_keep_their_rules_and_lose_a_stake_that_paid_nothing(migrated, db):
    _, _, _, _, event, group = migrated
    assert Event.objects.get(pk=event).options == {
        "payment": "chips",
        "chip": "0.50",
        "doubles": "stake",
    }
    assert Group.objects.get(pk=group).options == {"payment": "chips"}


def test_the_migration_taken_back_leaves_the_options_the_code_before_read(
    migrated, transactional_db
):
    tables, _, _, stored, _, _ = migrated
    _migrate([BEFORE])
    old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
    for label in ("ce-deng chips", "ce-deng chips, stake", "ce-deng pairwise"):
        row = old.get_model("ledger", "TableSession").objects.get(pk=tables[label])
        assert row.options == stored[label], label


def test_the_engine_refuses_a_stake_at_a_chips_table_now():
    document = {
        "game": "jie-long",
        "options": {"payment": "chips", "stake": "3"},
        "seating": SEATING,
        "first": "Anna",
    }
    with pytest.raises(scoring.ScoringError) as refused:
        scoring.parse_session(document)
    assert refused.value.path == "options.stake"
