"""Migration 0015 writes the result rows of every hand already stored: run on rows of the old
schema (0013), each table's rows add up to the totals the engine gives from its hands, to the
cent, hand by hand and player by player; voided hands and redeals have none."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

import scoring
from ledger.models import Result, TableSession
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): a migration run on rows of the schema before it.
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0013_table_ends_by_time")
THREE = ["Anna", "Bob", "Celine"]


def three(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


TABLES = [
    # (game, seating, options, [(data, voided)])
    (
        "ce-deng",
        SEATING,
        {"stake": "0.50"},
        [
            (plain_hand(), False),
            ({"redeal": "Bob"}, False),
            (plain_hand(first="Anna", direction="cw", Bob=0), False),  # a pass
            (plain_hand(first="Anna", direction="ccw", Celine=40), True),  # voided
            (plain_hand(first="Anna", direction="ccw", Dominic=80), False),  # a proven tail
        ],
    ),
    (
        "jie-long",
        THREE,
        {"ties": "lower_total"},
        [(three(2, 12, 20), False), (three(5, 5, 9), False)],
    ),
    ("tsair-deng", THREE, {"payment": "chips", "chip": "0.25"}, [(three(0, 12, 20), False)]),
    ("kkoribuchigi", SEATING, {"chip": "2"}, [(plain_hand(Celine=31), False)]),
]


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    stored = []
    for game, seating, options, hands in TABLES:
        row = old.get_model("ledger", "TableSession").objects.create(
            game=game, options=options, first=seating[0]
        )
        for position, name in enumerate(seating):
            player, _ = old.get_model("ledger", "Player").objects.get_or_create(
                key=name.casefold(), defaults={"name": name}
            )
            old.get_model("ledger", "Seat").objects.create(
                session=row, player=player, position=position
            )
        for number, (data, voided) in enumerate(hands, start=1):
            old.get_model("ledger", "Hand").objects.create(
                session=row, number=number, data=data, voided=voided
            )
        stored.append((row.pk, game, seating, options, [d for d, v in hands if not v]))
    try:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
        yield stored
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


def test_every_table_s_rows_add_up_to_its_totals_to_the_cent(migrated, db):
    for pk, game, seating, options, live in migrated:
        document = {"game": game, "options": options, "seating": seating, "first": seating[0]}
        # As the table's pages score it: its stored hands are not checked again (new=()).
        session = scoring.parse_session({**document, "hands": live})
        expected = scoring.score_session(session, new=())
        summed = dict(
            Result.objects.filter(session_id=pk)
            .standing()
            .values_list("player__name")
            .annotate(Sum("net"))
        )
        assert summed == {name: expected.totals.net[name] for name in seating}, game
        assert all(isinstance(value, Decimal) for value in summed.values())
        won = Result.objects.filter(session_id=pk, won=True).count()
        assert won == sum(expected.totals.hands_won.values())


def test_voided_hands_and_redeals_have_no_rows_and_old_hands_keep_their_result(migrated, db):
    ce_deng = TableSession.objects.get(pk=migrated[0][0])
    numbers = set(Result.objects.filter(session=ce_deng).values_list("hand__number", flat=True))
    assert numbers == {1, 3, 5}
    assert Result.objects.get(session=ce_deng, hand__number=3, player__name="Bob").specials == [
        "pass"
    ]
    # Stored before rules rev 3, an unmarked 80 was paid as a normal hand, and still is.
    eighty = Result.objects.get(session=ce_deng, hand__number=5, player__name="Dominic")
    assert (eighty.specials, eighty.net) == ([], Decimal("0.50") * (2 + 12 + 34 + 80 - 4 * 80))
