"""What has money is never deleted (issue 14, item 3): a table with hands, a group with payments
or hands, a tournament whose tables have hands are refused, saying why; the rows, changes and
payments themselves cannot go with anything (on_delete=PROTECT), nor by themselves (the
database refuses, tests/tables/test_guards.py). What has none is deleted."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import translation

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import (
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    Player,
    Result,
    Round,
    Seat,
    TableSession,
)
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

# Money summed and refused by each database: both run it.
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

THREE = ["Anna", "Bob", "Celine"]


def lone_table() -> TableSession:
    return services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")


def group_of_three() -> Group:
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=THREE, first="Anna")
    return group


def counts() -> tuple[int, ...]:
    models = (TableSession, Hand, HandChange, Result, Payment, Group, Player, Seat, Event, Round)
    return tuple(model.objects.count() for model in models)


def test_a_table_with_hands_is_kept_and_says_why():
    table = lone_table()
    services.hand_record(session=table, number=1, data=plain_hand())
    before = counts()

    with pytest.raises(services.Kept, match="has hands recorded: it is kept") as refused:
        services.table_delete(session=table)

    assert str(table) in refused.value.message
    assert counts() == before


def test_a_table_whose_only_hand_is_voided_is_kept_all_the_same():
    table = lone_table()
    services.hand_record(session=table, number=1, data=plain_hand())
    services.hand_void(session=table, number=1, version=1)

    with pytest.raises(services.Kept):
        services.table_delete(session=table)

    assert TableSession.objects.filter(pk=table.pk).exists()


def test_a_table_with_no_hands_is_deleted_with_its_seats_and_players():
    table = lone_table()

    services.table_delete(session=table)

    assert not TableSession.objects.exists()
    assert not Seat.objects.exists() and not Player.objects.exists()


def test_rows_changes_and_hands_cannot_go_with_their_table_or_hand_behind_the_services():
    table = lone_table()
    services.hand_record(session=table, number=1, data=plain_hand())
    before = counts()

    with pytest.raises(ProtectedError):
        TableSession.objects.filter(pk=table.pk).delete()
    with pytest.raises(ProtectedError):
        Hand.objects.all().delete()
    assert counts() == before
    # Nor do the rows or the change by themselves: the database refuses (migration 0040).
    with pytest.raises(IntegrityError, match="insert-only"), transaction.atomic():
        Result.objects.all().delete()
    with pytest.raises(IntegrityError, match="insert-only"), transaction.atomic():
        HandChange.objects.all().delete()

    assert counts() == before


def test_a_group_with_a_payment_is_kept_even_once_the_payment_is_voided():
    group = group_of_three()
    paid = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="5")
    group_services.payment_void(payment=paid.payment)
    before = counts()

    with pytest.raises(services.Kept, match="has payments or hands recorded: it is kept"):
        group_services.group_delete(group=group)
    with pytest.raises(ProtectedError):
        Group.objects.all().delete()

    assert counts() == before


def test_a_group_whose_table_has_hands_is_kept():
    group = group_of_three()
    table = group.tables.get()
    pips = {"Anna": 2, "Bob": 12, "Celine": 20}
    data = {"results": {name: {"pips": value} for name, value in pips.items()}}
    services.hand_record(session=table, number=1, data=data)

    with pytest.raises(services.Kept):
        group_services.group_delete(group=group)

    assert Group.objects.filter(pk=group.pk).exists() and Hand.objects.count() == 1


def test_a_group_with_no_payments_and_no_hands_is_deleted_with_its_tables_and_players():
    group = group_of_three()

    group_services.group_delete(group=group)

    assert counts() == (0,) * 10


def test_a_tournament_whose_tables_have_hands_is_kept():
    event = event_services.event_create(name="Cup", game="ce-deng", options={}, rounds=2)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    table = event_services.round_seat(event=event).tables.get()
    services.hand_record(session=table, number=1, data=plain_hand(first=table.first))
    before = counts()

    with pytest.raises(services.Kept, match="Cup has tables with hands recorded: it is kept"):
        event_services.event_delete(event=event)

    assert counts() == before


def test_a_tournament_with_no_hands_is_deleted_with_its_rounds_tables_and_players():
    event = event_services.event_create(name="Cup", game="ce-deng", options={}, rounds=2)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)

    event_services.event_delete(event=event)

    assert counts() == (0,) * 10


@pytest.mark.parametrize(
    ("language", "said"),
    [("zh-hans", "已记录了局"), ("zh-hant", "已記錄了局"), ("ko", "기록된 판이 있습니다")],
)
def test_why_a_table_is_kept_is_said_in_the_reader_s_language(language, said):
    table = lone_table()
    services.hand_record(session=table, number=1, data=plain_hand())

    with translation.override(language):
        assert said in (services.why_table_kept(table) or "")
