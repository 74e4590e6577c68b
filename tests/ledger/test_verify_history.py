"""`manage.py ledger_verify` (issue 46, item 3) on what keeps a table's money honest besides its
rows: each reversal exactly the row it takes back, negated; each hand's history one change per
version, a record first, chained from one change to the next up to what the hand holds; a
table's changes of how it ends chained up to how it ends now. Each is altered here behind the
services' back (tests/tampering.py) and named in one line, and the command exits 1."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from ledger.models import Hand, HandChange, Result, TableChange, TableSession
from ledger.tables import results, services
from tests.ledger.verifying import (
    ON_POSTGRESQL,
    THREE,
    drop_unique,
    jie_long,
    label,
    money,
    row,
    verify,
)
from tests.tampering import guards_off

pytestmark = pytest.mark.django_db


def reversal_of(table: TableSession, number: int, name: str) -> Result:
    """The reversal of ``name``'s first row of hand ``number``."""
    first = Result.objects.filter(
        session=table, hand__number=number, player__name=name, reverses=None
    ).earliest("pk")
    return first.reversal


def hand(table: TableSession, number: int) -> Hand:
    return Hand.objects.get(session=table, number=number)


def changes(table: TableSession, number: int) -> list[HandChange]:
    return list(HandChange.objects.filter(hand=hand(table, number)).order_by("pk"))


# Reversals


def altered(table: TableSession, column: str) -> dict[str, object]:
    """An update of a reversal's ``column`` that makes it no longer its row negated."""
    return {
        "player": {"player": table.seats.get(player__name="Anna").player},
        "hand": {"hand": hand(table, 3)},
        "unit": {"unit": Result.Unit.CHIPS},
        "net": {"net": F("net") + money(1)},
        "won from": {"won_from": {}},
    }[column]


@pytest.mark.parametrize("column", ["player", "hand", "unit", "net", "won from"])
def test_a_reversal_that_is_not_its_row_negated_is_found(tables, column):
    lone = tables["lone"]
    reversal = reversal_of(lone, 1, "Bob")
    with guards_off():
        Result.objects.filter(pk=reversal.pk).update(**altered(lone, column))
    reversal.refresh_from_db()

    code, said = verify()

    where = f"hand {reversal.hand.number}{' (voided)' if reversal.hand.voided else ''}"
    assert code == 1
    assert (
        f"{label(lone)}: {where}, {reversal.player.name}: row {reversal.pk} does not take back "
        f"row {reversal.reverses_id}: its {column} differs"
    ) in said


def test_a_reversal_that_takes_back_a_reversal_is_found(tables):
    lone = tables["lone"]
    reversal = reversal_of(lone, 1, "Bob")
    with guards_off():
        again = results.reversal(reversal)
        again.save()

    code, said = verify()

    assert code == 1
    assert (
        f"{label(lone)}: hand 1 (voided), Bob: row {again.pk} takes back row {reversal.pk}, "
        "itself a reversal"
    ) in said


def test_a_reversal_that_takes_back_another_table_s_row_is_found(tables):
    lone = tables["lone"]
    reversal = reversal_of(lone, 1, "Bob")
    elsewhere = row(tables["ties"], 1, "Anna")
    with guards_off():
        Result.objects.filter(pk=reversal.pk).update(reverses=elsewhere)

    code, said = verify()

    assert code == 1
    assert (
        f"{label(lone)}: hand 1 (voided), Bob: row {reversal.pk} takes back row {elsewhere.pk}, "
        "not a row of this table"
    ) in said


@ON_POSTGRESQL
@pytest.mark.both_databases
def test_a_row_taken_back_twice_is_found(tables):
    lone = tables["lone"]
    reversal = reversal_of(lone, 1, "Bob")
    with guards_off():
        drop_unique("ledger_result", "reverses_id")
        twice = results.reversal(reversal.reverses)
        twice.save()

    code, said = verify()

    assert code == 1
    assert (
        f"{label(lone)}: hand 1 (voided), Bob: row {reversal.reverses_id} is taken back 2 times "
        f"({reversal.pk}, {twice.pk})"
    ) in said


# A hand's history


def test_a_hand_voided_without_its_rows_and_its_history_is_found(tables):
    # As the review of issue 46 voided one: nothing refused it, only ledger_verify saw it.
    lone = tables["lone"]
    anna = row(lone, 3, "Anna")
    with guards_off():
        Hand.objects.filter(pk=hand(lone, 3).pk).update(voided=True)

    code, said = verify()

    at = f"{label(lone)}: hand 3 (voided)"
    assert code == 1
    assert f"{at}: its history ends in a record, but it is voided" in said
    assert f"{at}, Anna: stored net {anna.net:.2f}, the hands give no row" in said


def test_a_voided_hand_that_stands_again_is_found(tables):
    lone = tables["lone"]
    with guards_off():
        Hand.objects.filter(pk=hand(lone, 1).pk).update(voided=False)

    code, said = verify()

    assert code == 1
    assert f"{label(lone)}: hand 1: its history ends in a void, but it is not voided" in said


def test_a_version_without_its_change_is_found(tables):
    money = tables["money"]
    with guards_off():
        Hand.objects.filter(pk=hand(money, 1).pk).update(version=F("version") + 1)

    code, said = verify()

    assert code == 1
    assert said[:-1] == [f"{label(money)}: hand 1: version 2, but its history holds 1 change"]


def test_a_change_gone_from_the_history_is_found(tables):
    money = tables["money"]
    _, correction = changes(money, 2)
    with guards_off():
        HandChange.objects.filter(pk=correction.pk).delete()

    code, said = verify()

    at = f"{label(money)}: hand 2"
    assert code == 1
    assert said[:-1] == [
        f"{at}: version 2, but its history holds 1 change",
        f"{at}: it holds what its last change did not leave",
    ]


def test_a_hand_that_holds_what_no_change_left_is_found(tables):
    money = tables["money"]
    record = changes(money, 1)[0]
    with guards_off():
        HandChange.objects.filter(pk=record.pk).update(after=jie_long(1, 2, 3))

    code, said = verify()

    assert code == 1
    assert said[:-1] == [f"{label(money)}: hand 1: it holds what its last change did not leave"]


def test_a_history_that_does_not_begin_with_a_record_is_found(tables):
    money = tables["money"]
    record = changes(money, 1)[0]
    with guards_off():
        HandChange.objects.filter(pk=record.pk).update(kind=HandChange.Kind.CORRECT)

    code, said = verify()

    assert code == 1
    assert said[:-1] == [
        f"{label(money)}: hand 1: its history begins with a correction, not a record"
    ]


def test_a_record_after_the_first_change_is_found(tables):
    money = tables["money"]
    _, correction = changes(money, 2)
    with guards_off():
        HandChange.objects.filter(pk=correction.pk).update(kind=HandChange.Kind.RECORD)

    code, said = verify()

    assert code == 1
    assert said[:-1] == [f"{label(money)}: hand 2: its change 2 is a record after a record"]


def test_a_change_after_a_void_is_found(tables):
    lone = tables["lone"]
    _, void = changes(lone, 1)
    with guards_off():
        HandChange.objects.create(
            hand=void.hand, kind=HandChange.Kind.CORRECT, before=void.before, after=void.before
        )

    code, said = verify()

    at = f"{label(lone)}: hand 1 (voided)"
    assert code == 1
    assert said[:-1] == [
        f"{at}: version 2, but its history holds 3 changes",
        f"{at}: its change 3 is a correction after a void",
        f"{at}: its history ends in a correction, but it is voided",
    ]


def test_a_correction_that_does_not_start_from_the_change_before_is_found(tables):
    money = tables["money"]
    _, correction = changes(money, 2)
    with guards_off():
        HandChange.objects.filter(pk=correction.pk).update(before=jie_long(1, 2, 3))

    code, said = verify()

    assert code == 1
    assert said[:-1] == [
        f"{label(money)}: hand 2: its change 2 (a correction) does not start from what change 1 "
        "left"
    ]


# A table's changes of how it ends


def test_a_change_of_the_ends_that_does_not_start_from_the_one_before_is_found(tables):
    ties = tables["ties"]
    first = TableChange.objects.filter(session=ties).earliest("pk")
    with guards_off():
        TableChange.objects.filter(pk=first.pk).update(after={**first.after, "play_to": 550})

    code, said = verify()

    assert code == 1
    assert said[:-1] == [
        f"{label(ties)}: its change 2 of how it ends does not start from what change 1 left"
    ]


@pytest.mark.parametrize(
    "ends",
    [
        {"options": {"ties": "lower_total", "play_to": 700, "hands": 10}},
        {"ends_at": timezone.now() + timedelta(days=1)},
    ],
)
def test_a_table_that_ends_otherwise_than_its_last_change_left_it_is_found(tables, ends):
    ties = tables["ties"]
    with guards_off():
        TableSession.objects.filter(pk=ties.pk).update(**ends)

    code, said = verify()

    assert code == 1
    assert f"{label(ties)}: it ends otherwise than its last change of how it ends left it" in said


def test_a_table_extended_after_its_time_ran_out_agrees(db):
    # Its first hand was the last, then the time was extended: the hand unmarked (a correction)
    # and the change of its end kept, then another hand played.
    table = services.session_create(
        game="jie-long",
        options={},
        seating=THREE,
        first="Anna",
        ends_at=timezone.now() - timedelta(minutes=1),
    )
    services.hand_record(session=table, number=1, data=jie_long(2, 12, 20))
    assert hand(table, 1).data["last"] is True
    services.table_ends(
        session=table, play_to=None, hands=None, ends_at=timezone.now() + timedelta(hours=1)
    )
    services.hand_record(session=table, number=2, data=jie_long(9, 5, 20))

    assert verify() == (
        0,
        ["All agree: checked 1 table (2 hands, 4 changes) and 0 groups (0 payments)."],
    )
