"""Migration 0017 gives every circle its own players (issue 20, item 1): on rows of the old
schema, where one Anna sat at two lone tables and played a tournament, each table and the
tournament get an Anna of their own, with the same names, and every total (the result rows'
sums and the engine's totals) is what it was, to the cent."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

import scoring
from ledger.events.selectors import standings
from ledger.models import Entry, Event, Player, Result, TableSession
from ledger.tables import selectors
from ledger.tables.exports import totals_rows
from scoring.document import amount
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): a migration run on rows of the schema before it.
pytestmark = pytest.mark.postgresql

HANDS = [plain_hand(), plain_hand(direction="cw", Bob=0)]  # at every table, stake apart
BEFORE = ("ledger", "0013_table_ends_by_time")  # before the result rows and the circles


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    OldPlayer = old.get_model("ledger", "Player")
    shared = {name: OldPlayer.objects.create(name=name, key=name.casefold()) for name in SEATING}
    OldPlayer.objects.create(name="Nobody", key="nobody")  # seated nowhere: goes
    event = old.get_model("ledger", "Event").objects.create(
        name="Cup", game="ce-deng", options={}, rounds=1
    )
    round = old.get_model("ledger", "Round").objects.create(event=event, number=1, method="mixing")
    for name in SEATING:
        old.get_model("ledger", "Entry").objects.create(event=event, player=shared[name])
    before = {}
    for label, in_round, stake in (("one", None, "1"), ("two", None, "0.50"), ("cup", round, "2")):
        table = old.get_model("ledger", "TableSession").objects.create(
            game="ce-deng", options={"stake": stake}, first="Anna", round=in_round
        )
        for position, name in enumerate(SEATING):
            old.get_model("ledger", "Seat").objects.create(
                session=table, player=shared[name], position=position
            )
        for number, data in enumerate(HANDS, 1):
            old.get_model("ledger", "Hand").objects.create(session=table, number=number, data=data)
        before[label] = table.pk
    MigrationExecutor(connection).migrate([("ledger", "0013_table_ends_by_time")])
    try:
        # From 0013, so that 0014 writes the rows from the hands as it does on a real database.
        old13 = (
            MigrationExecutor(connection)
            .loader.project_state([("ledger", "0013_table_ends_by_time")])
            .apps
        )
        assert old13.get_model("ledger", "Player").objects.count() == 5
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
        yield before, event.pk
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


def test_every_circle_has_its_own_players_with_the_same_names(migrated, db):
    tables, event = migrated
    for label in ("one", "two"):
        table = TableSession.objects.get(pk=tables[label])
        assert table.seating == SEATING
        assert set(Player.objects.filter(table=table).values_list("name", flat=True)) == set(
            SEATING
        )
    cup = TableSession.objects.get(pk=tables["cup"])
    entered = Entry.objects.filter(event_id=event).values_list("player_id", flat=True)
    assert sorted(seat.player_id for seat in cup.seats.all()) == sorted(entered)
    assert Player.objects.count() == 3 * 4  # two tables' and the cup's; Nobody went
    assert not Player.objects.filter(table=None, event=None).exists()


def test_every_total_is_what_it_was_to_the_cent(migrated, db):
    tables, _ = migrated
    for pk in tables.values():
        table = TableSession.objects.get(pk=pk)
        expected = selectors.rescored_sheet(table).result.totals.net
        summed = dict(
            Result.objects.filter(session=table)
            .standing()
            .values_list("player__name")
            .annotate(Sum("net"))
        )
        assert summed == dict(expected)
        seated = set(table.seats.values_list("player_id", flat=True))
        assert (
            set(Result.objects.filter(session=table).values_list("player_id", flat=True)) <= seated
        )


def engine_totals(stake: str):
    """The totals of the hands as they were stored, by the engine, before anything moved."""
    document = {"game": "ce-deng", "options": {"stake": stake}, "seating": SEATING}
    session = scoring.parse_session({**document, "first": "Anna", "hands": HANDS})
    return scoring.score_session(session, new=()).totals


def test_the_tournament_s_standings_and_a_table_s_export_are_what_they_were(migrated, db):
    tables, event = migrated
    cup = engine_totals("2")
    rows = {row.name: row for row in standings(Event.objects.get(pk=event)).rows}
    assert {name: (row.net, row.points, row.hands_won) for name, row in rows.items()} == {
        name: (cup.net[name], cup.scores[name], cup.hands_won[name]) for name in SEATING
    }

    one = selectors.rescored_sheet(TableSession.objects.get(pk=tables["one"]))
    exported = {row[1]: row for row in list(totals_rows(one))[1:]}
    expected = engine_totals("1")
    assert {name: (row[3], row[5]) for name, row in exported.items()} == {
        name: (expected.scores[name], amount(expected.net[name])) for name in SEATING
    }
