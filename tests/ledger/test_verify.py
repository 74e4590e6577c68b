"""`manage.py ledger_verify` (issue 14, item 4): every table scored again from its hands and
compared with its stored result rows and kept tally, every group's balances with its tables'
hands and its payments; each difference in words, a summary, exit 1 on any difference and 0
when all agree. What it finds is altered here behind the services' back, and behind the
database's guards (tests/tampering.py). Its reversals and
history: test_verify_history.py; its groups' payments and balances:
tests/groups/test_verify_groups.py."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from ledger.groups import selectors as group_selectors
from ledger.models import Group, Hand, Result, TableSession
from ledger.tables import selectors, services
from tests.ledger.verifying import (
    CHECKED,
    THREE,
    jie_long,
    label,
    money,
    move,
    row,
    verify,
)
from tests.tampering import guards_off

# Money summed and refused by each database: both run it.
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_a_database_as_the_services_left_it_agrees_and_exits_0(tables):
    assert verify() == (0, [f"All agree: {CHECKED}."])


def test_an_empty_database_agrees():
    assert verify() == (
        0,
        ["All agree: checked 0 tables (0 hands, 0 changes) and 0 groups (0 payments)."],
    )


def test_a_row_s_net_moved_to_another_player_is_found_hand_by_hand_and_in_the_totals(tables):
    lone = tables["lone"]
    anna, bob = row(lone, 3, "Anna").net, row(lone, 3, "Bob").net
    totals = selectors.score_sheet(lone).result.totals.net

    move(lone, 3, "Bob", "Anna", "2")
    code, said = verify()

    at = label(lone)
    assert code == 1
    assert said == [
        f"{at}: hand 3, Anna: stored net {anna + 2:.2f}, the hands give {anna:.2f}",
        f"{at}: hand 3, Bob: stored net {bob - 2:.2f}, the hands give {bob:.2f}",
        f"{at}: Anna's total: stored net {totals['Anna'] + 2:.2f}, the hands give "
        f"{totals['Anna']:.2f}",
        f"{at}: Bob's total: stored net {totals['Bob'] - 2:.2f}, the hands give "
        f"{totals['Bob']:.2f}",
        f"4 differences: {CHECKED}.",
    ]


def test_the_words_name_the_table_as_the_issue_does(tables):
    lone = tables["lone"]
    move(lone, 3, "Bob", "Anna", "2")

    first = verify()[1][0]

    assert re.fullmatch(
        r"Table [\w-]{22} \(Ce Deng, \d\d/\d\d/\d{4}\): hand 3, Anna: stored net "
        r"-?\d+\.\d\d, the hands give -?\d+\.\d\d",
        first,
    )


def test_a_group_table_s_row_altered_shows_in_the_group_s_balances_too(tables):
    group = Group.objects.get()
    before = group_selectors.ledger(group)

    move(tables["money"], 2, "Anna", "Celine", "0.5")
    code, said = verify()

    at = f"Group Teahouse (#{group.pk})"
    given = "its tables' hands and payments give"
    assert code == 1
    assert [line for line in said if line.startswith("Group")] == [
        f"{at}: Anna's money: stored {before.money['Anna'] - Decimal('0.5'):.2f}, {given} "
        f"{before.money['Anna']:.2f}",
        f"{at}: Celine's money: stored {before.money['Celine'] + Decimal('0.5'):.2f}, {given} "
        f"{before.money['Celine']:.2f}",
    ]


def test_a_chips_table_s_row_altered_shows_in_the_group_s_money(tables):
    before = group_selectors.ledger(Group.objects.get()).money

    move(tables["chips"], 1, "Celine", "Bob", "1")  # a chip is 0.5: two chips, 1 in money
    code, said = verify()

    given = "its tables' hands and payments give"
    assert code == 1
    assert [line.split(": ", 1)[1] for line in said if line.startswith("Group")] == [
        f"Bob's money: stored {before['Bob'] + 1:.2f}, {given} {before['Bob']:.2f}",
        f"Celine's money: stored {before['Celine'] - 1:.2f}, {given} {before['Celine']:.2f}",
    ]


def test_a_row_that_unbalances_its_hand_is_found(tables):
    ties = tables["ties"]
    with guards_off():  # as in a copy restored without them
        Result.objects.filter(pk=row(ties, 1, "Anna").pk).update(net=F("net") + money(1))

    code, said = verify()

    assert code == 1
    said_sum = f"{label(ties)}: hand 1: its rows, reversals included, sum to 1.00 money, not 0"
    assert said_sum in said


def test_a_row_whose_reversal_is_gone_is_found(tables):
    lone = tables["lone"]
    old = Result.objects.get(session=lone, hand__number=1, player__name="Bob", reverses=None)
    with guards_off():
        Result.objects.filter(reverses=old).delete()

    code, said = verify()

    assert code == 1
    assert said[0] == (
        f"{label(lone)}: hand 1 (voided), Bob: stored net {old.net:.2f}, the hands give no row"
    )
    unbalanced = f"{label(lone)}: hand 1 (voided): its rows, reversals included, sum to"
    assert any(line.startswith(unbalanced) for line in said)


def test_a_reversal_that_does_not_take_its_row_back_is_found(tables):
    lone = tables["lone"]
    old = Result.objects.get(session=lone, hand__number=1, player__name="Bob", reverses=None)
    with guards_off():
        Result.objects.filter(reverses=old).update(score=F("score") + 1)

    code, said = verify()

    assert code == 1
    assert (
        f"{label(lone)}: hand 1 (voided), Bob: row {old.reversal.pk} does not take back row "
        f"{old.pk}: its score differs"
    ) in said


def test_a_missing_row_and_a_wrong_score_or_winner_are_found(tables):
    ties = tables["ties"]
    celine = row(ties, 1, "Celine")
    anna = row(ties, 1, "Anna")
    with guards_off():
        celine.delete()  # and what she paid moved to Bob's row: the hand still sums to zero
        Result.objects.filter(pk=row(ties, 1, "Bob").pk).update(net=F("net") + money(celine.net))
        Result.objects.filter(pk=anna.pk).update(score=6, won=not anna.won)

    code, said = verify()

    at = f"{label(ties)}: hand 1"
    stored, given = ("no", "yes") if anna.won else ("yes", "no")
    assert code == 1
    assert f"{at}, Anna: stored score 6, the hands give 5" in said
    assert f"{at}, Anna: stored won {stored}, the hands give {given}" in said
    assert f"{at}, Celine: no row stored, the hands give net {celine.net:.2f}" in said


def test_a_kept_tally_altered_is_found(tables):
    lone = tables["lone"]
    lone.refresh_from_db()
    kept = lone.tally
    kept["counted"] += 1
    kept["corrected"] = False
    with guards_off():
        TableSession.objects.filter(pk=lone.pk).update(tally=kept)

    code, said = verify()

    at = label(lone)
    assert code == 1
    assert said == [
        f"{at}: its kept tally: stored hands that count 3, the hands give 2",
        f"{at}: its kept tally: stored corrected no, the hands give yes",
        f"2 differences: {CHECKED}.",
    ]


def test_a_tally_not_counted_for_the_table_as_it_is_now_is_not_compared(tables):
    # Never used (standings count such a table from its hands), so not a difference.
    with guards_off():
        TableSession.objects.filter(pk=tables["lone"].pk).update(tally={})

    assert verify()[0] == 0


def test_a_table_whose_hands_no_longer_score_says_so(tables):
    ties = tables["ties"]
    hand = Hand.objects.get(session=ties, number=1)
    anna = str(ties.seats.get(player__name="Anna").player_id)
    hand.data["results"][anna]["pips"] = -4
    with guards_off():
        Hand.objects.filter(pk=hand.pk).update(data=hand.data)

    code, said = verify()

    assert code == 1
    assert said[0].startswith(f"{label(ties)}: its hands do not score: ")


# Each batch of tables: the tables, their seats, hands, rows, rows summed, the hands' changes
# and the tables'.
PER_BATCH = 7


def test_tables_are_read_in_batches_not_hand_by_hand_or_table_by_table(tables):
    def queries(**options: object) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert verify(**options)[0] == 0
        return len(captured)

    few = queries()
    for table in (tables["money"], tables["ties"]):  # more hands, and a table more
        number = table.hands.count() + 1
        services.hand_record(session=table, number=number, data=jie_long(12, 2, 20))
    services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")

    assert queries() == few
    assert queries(batch=2) == few + 3 * PER_BATCH  # seven tables: four batches, not one
