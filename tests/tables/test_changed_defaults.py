"""Tables and events stored before Kko-li-but-i-gi's payment defaulted to "highest" keep
"each", the default they were played under (migration 0008): no stored result changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import scoring
from ledger.models import Event, TableSession
from ledger.tables import selectors
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): a migration (0008) run on rows of the schema before it.
pytestmark = pytest.mark.postgresql

BEFORE, AFTER = ("ledger", "0007_player_key"), ("ledger", "0008_pin_changed_defaults")


def _score(game: str, options: dict, hands: list) -> scoring.Totals:
    document = {"game": game, "options": options, "seating": SEATING, "first": "Anna"}
    return scoring.score_session(scoring.parse_session({**document, "hands": hands})).totals


@pytest.fixture(scope="module")
def migrated_from_before(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated_from_before()


def _migrated_from_before():
    """Stored tables and an event as the ledger kept them before the change, then migrated."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    stored = {}
    for label, game, options in [
        ("unsaid", "kkoribuchigi", {"chip": "0.50"}),
        ("highest", "kkoribuchigi", {"payment": "highest"}),
        ("other game", "jie-long", {}),
    ]:
        table = old.get_model("ledger", "TableSession").objects.create(
            game=game, options=options, first="Anna"
        )
        for position, name in enumerate(SEATING):
            player, _ = old.get_model("ledger", "Player").objects.get_or_create(
                key=name.casefold(), defaults={"name": name}
            )
            old.get_model("ledger", "Seat").objects.create(
                session=table, player=player, position=position
            )
        for number in (1, 2):
            old.get_model("ledger", "Hand").objects.create(
                session=table, number=number, data=plain_hand(Dominic=31 + number)
            )
        stored[label] = table.pk
    stored["event"] = (
        old.get_model("ledger", "Event")
        .objects.create(name="Cup", game="kkoribuchigi", options={}, rounds=2)
        .pk
    )
    try:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )  # through AFTER to the latest, which the models are
        yield stored
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


def test_a_table_that_left_payment_unsaid_keeps_each_and_its_totals(migrated_from_before, db):
    table = TableSession.objects.get(pk=migrated_from_before["unsaid"])
    hands = [plain_hand(Dominic=32), plain_hand(Dominic=33)]
    as_played = _score("kkoribuchigi", {"chip": "0.50", "payment": "each"}, hands)
    # Without the migration the table would now score under "highest", and differently.
    assert as_played != _score("kkoribuchigi", {"chip": "0.50"}, hands)

    assert table.options == {"chip": "0.50", "payment": "each"}
    assert selectors.score_sheet(table).result.totals == as_played


def test_tables_that_chose_or_do_not_take_payment_are_left_alone(migrated_from_before, db):
    chosen = TableSession.objects.get(pk=migrated_from_before["highest"])
    other = TableSession.objects.get(pk=migrated_from_before["other game"])

    assert chosen.options == {"payment": "highest"} and other.options == {}


def test_an_event_that_left_payment_unsaid_keeps_each(migrated_from_before, db):
    # Only the options column: the model has fields that later migrations add.
    options = Event.objects.values_list("options", flat=True).get(pk=migrated_from_before["event"])
    assert options == {"payment": "each"}
