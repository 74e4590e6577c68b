"""Every row of a hand, reversals included, sums to zero in each unit, and the database holds
it (issue 14, item 3): on PostgreSQL a deferred constraint trigger refuses a commit that breaks
it, however the rows were written; on SQLite the services check the same before they commit.
Either way nothing of the transaction is stored."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.models import Hand, Player, Result, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

# The trigger is PostgreSQL's, the check before commit SQLite's: both run it.
pytestmark = pytest.mark.both_databases
ON_POSTGRESQL = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the trigger is PostgreSQL's (DATABASE_URL=postgres://...); on SQLite the services "
    "check instead: test_a_correction_that_would_leave_a_hand_unbalanced_is_refused...",
)
UNBALANCED = "the result rows of hand .* sum to 5.0000 money, not 0"


def table_with_a_hand() -> TableSession:
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    return table


def stray(table: TableSession, net: str) -> Result:
    """A row written behind the services' back: Anna is paid ``net`` more in hand 1."""
    return Result.objects.create(
        session=table,
        hand=Hand.objects.get(session=table, number=1),
        player=Player.objects.get(table=table, name="Anna"),
        net=Decimal(net),
    )


def stored(table: TableSession) -> list[tuple[object, ...]]:
    rows = Result.objects.filter(session=table).order_by("pk")
    return list(rows.values_list("hand__number", "player__name", "net", "reverses"))


@ON_POSTGRESQL
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_at_commit_one_row_inserted_behind_the_services_back():
    table = table_with_a_hand()
    before = stored(table)

    with pytest.raises(IntegrityError, match=UNBALANCED), transaction.atomic():
        stray(table, "5")
        # Deferred: nothing is said until the commit, so a transaction may pass through an
        # unbalanced moment (a reversal written before the new outcome's rows).
        assert Result.objects.filter(session=table).count() == len(before) + 1

    assert stored(table) == before


@ON_POSTGRESQL
@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_a_row_s_money_changed_or_deleted_behind_the_services_back():
    table = table_with_a_hand()
    before = stored(table)
    anna = Result.objects.get(session=table, player__name="Anna")

    with pytest.raises(IntegrityError, match="sum to"), transaction.atomic():
        Result.objects.filter(pk=anna.pk).update(net=anna.net + 1)
    with pytest.raises(IntegrityError, match="sum to"), transaction.atomic():
        Result.objects.filter(pk=anna.pk).delete()

    assert stored(table) == before


@pytest.mark.django_db(transaction=True)
def test_rows_that_move_money_within_a_hand_and_still_sum_to_zero_commit():
    # What the trigger checks is the sum, not who wrote the rows: the services' own writes,
    # and a hand's every row deleted at once, commit.
    table = table_with_a_hand()
    services.hand_correct(session=table, number=1, data=plain_hand(Anna=20, Bob=2), version=1)
    services.hand_void(session=table, number=1, version=2)
    with transaction.atomic():
        stray(table, "5")
        stray(table, "-5")

    assert Result.objects.filter(session=table).standing().count() == 2  # the two strays
    with transaction.atomic():  # the reversals first: the rows they take back are protected
        Result.objects.filter(session=table).exclude(reverses=None).delete()
        Result.objects.filter(session=table).delete()
    assert not Result.objects.exists()


@pytest.mark.parametrize("change", ["correct", "void"])
@pytest.mark.django_db(transaction=True)
def test_a_correction_that_would_leave_a_hand_unbalanced_is_refused_and_stores_nothing(change):
    # A replaced row that does not balance, in the same transaction as a change through the
    # services: refused by them before the commit on SQLite, by the trigger at it on PostgreSQL.
    table = table_with_a_hand()
    before = stored(table)

    # (The change reverses the stray row, as it stands for Anna, and leaves hers unbalanced.)
    with pytest.raises(IntegrityError, match="sum to .* money, not 0"), transaction.atomic():
        stray(table, "5")
        if change == "correct":
            data = plain_hand(Anna=20, Bob=2)
            services.hand_correct(session=table, number=1, data=data, version=1)
        else:
            services.hand_void(session=table, number=1, version=1)

    assert stored(table) == before
    assert Hand.objects.get(session=table, number=1).version == 1
