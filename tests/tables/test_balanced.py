"""Every row of a hand, reversals included, sums to zero in each unit, and a voided hand has no
row standing; the database holds it at every commit, however the rows were written (issue 14,
item 3; issue 46): PostgreSQL by a deferred constraint trigger, SQLite by a deferred foreign
key that points nowhere while a hand written in the transaction is not settled (migration
0040). Either way nothing of the transaction is stored. The rows themselves are insert-only:
tests/tables/test_guards.py."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.models import Hand, Player, Result, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

pytestmark = pytest.mark.both_databases

# What each database says at the commit: PostgreSQL names the hand; SQLite's foreign key fails
# (PRAGMA foreign_key_check names the hand in ledger_unsettled_hand).
if connection.vendor == "postgresql":
    UNBALANCED = "the result rows of hand .* sum to .* money, not 0"
    STANDING = "hand .* is voided, yet rows of it stand"
else:
    UNBALANCED = STANDING = "FOREIGN KEY constraint failed"


def table_with_a_hand() -> TableSession:
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    return table


def stray(table: TableSession, net: str, name: str = "Anna") -> Result:
    """A row written behind the services' back: ``name`` is paid ``net`` more in hand 1."""
    return Result.objects.create(
        session=table,
        hand=Hand.objects.get(session=table, number=1),
        player=Player.objects.get(table=table, name=name),
        net=Decimal(net),
    )


def stored(table: TableSession) -> list[tuple[object, ...]]:
    rows = Result.objects.filter(session=table).order_by("pk")
    return list(rows.values_list("hand__number", "player__name", "net", "reverses"))


@pytest.mark.django_db(transaction=True)
def test_one_row_inserted_behind_the_services_back_is_refused_at_commit():
    table = table_with_a_hand()
    before = stored(table)

    with pytest.raises(IntegrityError, match=UNBALANCED), transaction.atomic():
        stray(table, "5")
        # Deferred: nothing is said until the commit, so a transaction may pass through an
        # unbalanced moment (a reversal written before the new outcome's rows).
        assert Result.objects.filter(session=table).count() == len(before) + 1

    assert stored(table) == before


@pytest.mark.django_db(transaction=True)
def test_a_row_inserted_by_hand_in_sql_is_refused_at_commit_too():
    table = table_with_a_hand()
    before = stored(table)
    anna = Result.objects.get(session=table, player__name="Anna")
    columns = "session_id, hand_id, player_id, score, net, unit, won, specials, won_from, paid"
    values = [table.pk, anna.hand_id, anna.player_id, 0, 50000, "money", False, "[]", "{}", "[]"]

    with (
        pytest.raises(IntegrityError, match=UNBALANCED),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            f"INSERT INTO ledger_result ({columns}, created) VALUES (%s, %s, %s, %s, %s, %s, %s,"
            " %s, %s, %s, CURRENT_TIMESTAMP)",
            values,
        )
    # Outside a transaction the statement is its own, and its commit refuses it alike.
    with pytest.raises(IntegrityError, match=UNBALANCED):
        stray(table, "5")

    assert stored(table) == before


@pytest.mark.django_db(transaction=True)
def test_rows_that_balance_each_other_commit_but_not_in_a_voided_hand():
    # The database checks sums and what stands, not who wrote the rows (ledger_verify finds
    # rows that are not the engine's): two strays that cancel out commit.
    table = table_with_a_hand()
    with transaction.atomic():
        stray(table, "5")
        stray(table, "-5", name="Bob")
    assert Result.objects.filter(session=table).standing().count() == 6
    voided = table_with_a_hand()
    services.hand_void(session=voided, number=1, version=1)
    before = stored(voided)

    # A voided hand takes no row that stands, balanced or not.
    with pytest.raises(IntegrityError, match=STANDING), transaction.atomic():
        stray(voided, "5")
        stray(voided, "-5", name="Bob")
    # Nor is a hand voided that keeps one standing: the void takes back a row for each player,
    # and Anna's stray is a second (which leaves the hand unbalanced as well).
    with pytest.raises(IntegrityError, match=f"{UNBALANCED}|{STANDING}"):
        services.hand_void(session=table, number=1, version=1)

    assert stored(voided) == before
    assert not Result.objects.filter(session=voided).standing().exists()
    assert not Hand.objects.get(session=table).voided


@pytest.mark.parametrize("change", ["correct", "void"])
@pytest.mark.django_db(transaction=True)
def test_a_correction_that_would_leave_a_hand_unbalanced_is_refused_and_stores_nothing(change):
    # A stray row that does not balance, in the same transaction as a change through the
    # services: the change reverses it, as it stands for Anna, and leaves hers unbalanced.
    table = table_with_a_hand()
    before = stored(table)

    with pytest.raises(IntegrityError, match=UNBALANCED), transaction.atomic():
        stray(table, "5")
        if change == "correct":
            data = plain_hand(Anna=20, Bob=2)
            services.hand_correct(session=table, number=1, data=data, version=1)
        else:
            services.hand_void(session=table, number=1, version=1)

    assert stored(table) == before
    assert Hand.objects.get(session=table, number=1).version == 1
