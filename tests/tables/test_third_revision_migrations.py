"""Rows stored before the rules' third revision, migrated (0010 to 0012), keep every total to
the cent: Tiu Yu tables and events keep the ch'i tsun reading they were checked under
(``chi_tsun: by_spots``, migration 0010), and scores typed as "١٢", "12 " or 12.0 are stored as
the whole numbers they were read as (migration 0012), in the hands and in their history."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import scoring
from ledger.models import Event, Hand, TableSession
from ledger.tables import selectors
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): migrations run on rows of the schema before them.
pytestmark = pytest.mark.postgresql

BEFORE, AFTER = ("ledger", "0009_event_undo"), ("ledger", "0012_scores_as_numbers")
PAIR = ["Anna", "Bob"]
# Catches that only the looser reading mates: 2:4 with 3:3, and two 1:2.
LOOSE_CATCH = {
    "first": "Anna",
    "direction": "ccw",
    "results": {
        "Anna": {"tiles": ["2:4", "3:3", "6:6", "6:6"]},
        "Bob": {"tiles": ["1:2", "1:2"]},
    },
}
TYPED = ["١٢", "12 ", 12.0, "34"]


def _totals(game: str, seating: list[str], options: dict, hands: list) -> scoring.Totals:
    document = {"game": game, "options": options, "seating": seating, "first": seating[0]}
    return scoring.score_session(scoring.parse_session({**document, "hands": hands})).totals


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    """A Tiu Yu table and event and a Ce Deng table with typed scores, as stored before."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps

    def table(game: str, seating: list[str], hands: list[dict]) -> int:
        row = old.get_model("ledger", "TableSession").objects.create(
            game=game, options={"stake": "0.50"}, first=seating[0]
        )
        for position, name in enumerate(seating):
            player, _ = old.get_model("ledger", "Player").objects.get_or_create(
                key=name.casefold(), defaults={"name": name}
            )
            old.get_model("ledger", "Seat").objects.create(
                session=row, player=player, position=position
            )
        for number, data in enumerate(hands, start=1):
            hand = old.get_model("ledger", "Hand").objects.create(
                session=row, number=number, data=data
            )
            old.get_model("ledger", "HandChange").objects.create(
                hand=hand, kind="record", after=data
            )
        return row.pk

    stored = {
        "tiu-yu": table("tiu-yu", PAIR, [LOOSE_CATCH, LOOSE_CATCH]),
        "ce-deng": table("ce-deng", SEATING, [plain_hand(Bob=typed) for typed in TYPED]),
        "event": old.get_model("ledger", "Event")
        .objects.create(name="Cup", game="tiu-yu", options={}, rounds=2)
        .pk,
    }
    try:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )  # through AFTER to the latest, which the models are
        yield stored
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


def test_a_tiu_yu_table_keeps_the_loose_ch_i_tsun_and_its_totals_to_the_cent(migrated, db):
    table = TableSession.objects.get(pk=migrated["tiu-yu"])
    as_played = _totals(
        "tiu-yu", PAIR, {"stake": "0.50", "chi_tsun": "by_spots"}, [LOOSE_CATCH] * 2
    )

    assert table.options == {"stake": "0.50", "chi_tsun": "by_spots"}
    totals = selectors.rescored_sheet(table).result.totals
    assert totals == as_played
    # Anna 48 + 10, Bob 10, each hand: 48 x 0.50 = 24 a hand.
    assert totals.net == {"Anna": Decimal("48.00"), "Bob": Decimal("-48.00")}
    with pytest.raises(scoring.ScoringError):  # under today's default it could not be entered
        _totals("tiu-yu", PAIR, {"stake": "0.50"}, [LOOSE_CATCH])


def test_a_tiu_yu_event_keeps_the_loose_ch_i_tsun(migrated, db):
    options = Event.objects.values_list("options", flat=True).get(pk=migrated["event"])
    assert options == {"chi_tsun": "by_spots"}


def test_typed_scores_are_stored_as_whole_numbers_and_every_total_stays(migrated, db):
    table = TableSession.objects.get(pk=migrated["ce-deng"])
    as_typed = _totals("ce-deng", SEATING, {"stake": "0.50"}, [plain_hand(Bob=t) for t in TYPED])

    stored = [hand.named["results"]["Bob"]["pips"] for hand in table.hands.order_by("number")]
    assert stored == [12, 12, 12, 34]
    assert all(type(pips) is int for pips in stored)
    history = sorted(selectors.changes(table), key=lambda change: change.number)
    assert [change.after["results"]["Bob"]["pips"] for change in history] == [12, 12, 12, 34]
    assert selectors.rescored_sheet(table).result.totals == as_typed
    assert Hand.objects.filter(session=table).count() == 4
