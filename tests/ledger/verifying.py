"""What the tests of ``manage.py ledger_verify`` share: a database holding every kind of table,
hand and payment as the services left it (the fixture ``tables``, in tests/ledger and
tests/groups through their conftest.py), the command run, and rows altered behind its back
(tests/ledger/test_verify.py, test_verify_history.py; tests/groups/test_verify_groups.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F, Value
from django.utils import timezone

from ledger.amounts import AmountField
from ledger.groups import services as group_services
from ledger.models import Result, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand
from tests.tampering import guards_off

THREE = ["Anna", "Bob", "Celine"]


def jie_long(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


@pytest.fixture
def tables(db) -> dict[str, TableSession]:
    """Every kind of table and payment: a lone table with a correction and a void; a group's
    money table (a hand corrected), its chip tables at a chip of 0.50 and of 2 (a hand voided),
    its table for points only, payments in money and in chips at each value, one of each
    voided; a table that breaks ties by the lower total, whose end changed twice."""
    lone = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=lone, number=1, data=plain_hand())
    services.hand_record(session=lone, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_record(session=lone, number=3, data=plain_hand())
    services.hand_correct(session=lone, number=2, data=plain_hand(direction="cw"), version=1)
    services.hand_void(session=lone, number=1, version=1)
    group = group_services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    money = group_services.table_start(group=group, seating=THREE, first="Anna")
    services.hand_record(session=money, number=1, data=jie_long(2, 12, 20))
    services.hand_record(session=money, number=2, data=jie_long(9, 5, 20))
    services.hand_correct(session=money, number=2, data=jie_long(9, 5, 22), version=1)
    chips = group_services.table_start(
        group=group, seating=THREE, first="Bob", options={"payment": "chips", "chip": "0.5"}
    )
    services.hand_record(session=chips, number=1, data=jie_long(9, 5, 20))
    dear = group_services.table_start(
        group=group, seating=THREE, first="Celine", options={"payment": "chips", "chip": "2"}
    )
    services.hand_record(session=dear, number=1, data=jie_long(20, 5, 9))
    services.hand_record(session=dear, number=2, data=jie_long(5, 20, 9))
    services.hand_void(session=dear, number=2, version=1)
    points = group_services.table_start(
        group=group, seating=THREE, first="Anna", options={"stake": "0"}
    )
    services.hand_record(session=points, number=1, data=jie_long(12, 2, 20))
    group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="13")
    paid = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="1")
    group_services.payment_void(payment=paid.payment)
    group_services.payment_record(
        group=group, payer="Anna", payee="Bob", amount="3", unit="chips", chip="0.5"
    )
    group_services.payment_record(
        group=group, payer="Celine", payee="Bob", amount="2", unit="chips", chip="2"
    )
    paid = group_services.payment_record(
        group=group, payer="Bob", payee="Celine", amount="1", unit="chips", chip="2"
    )
    group_services.payment_void(payment=paid.payment)
    ties = services.session_create(
        game="jie-long", options={"ties": "lower_total"}, seating=THREE, first="Anna"
    )
    services.hand_record(session=ties, number=1, data=jie_long(5, 5, 20))
    services.table_ends(session=ties, play_to=500, hands=None, ends_at=None)
    services.table_ends(session=ties, play_to=600, hands=10, ends_at=None)
    return {
        "lone": lone,
        "money": money,
        "chips": chips,
        "dear": dear,
        "points": points,
        "ties": ties,
    }


# What the fixture holds, as the command's summary counts it.
CHECKED = "checked 6 tables (10 hands, 16 changes) and 1 group (5 payments)"


def verify(**options: object) -> tuple[int, list[str]]:
    """The command's exit code and the lines it printed."""
    out = StringIO()
    try:
        call_command("ledger_verify", stdout=out, **options)
    except SystemExit as exit:
        code = exit.code
    else:
        code = 0
    assert isinstance(code, int)
    return code, out.getvalue().splitlines()


def label(table: TableSession) -> str:
    day = timezone.localtime(table.created)
    return f"Table {table.token} ({table.get_game_display()}, {day:%d/%m/%Y})"


def row(table: TableSession, number: int, name: str) -> Result:
    return Result.objects.standing().get(session=table, hand__number=number, player__name=name)


def money(amount: object) -> Value:
    """``amount`` for arithmetic on an amount column in SQL: in its ten-thousandths."""
    return Value(Decimal(str(amount)), output_field=AmountField())


def move(table: TableSession, number: int, payer: str, payee: str, amount: str) -> None:
    """Move ``amount`` from ``payer``'s row of hand ``number`` to ``payee``'s: the hand's rows
    still sum to zero, so no sum check refuses it; only a scoring of the hands finds it wrong."""
    with guards_off():
        Result.objects.filter(pk=row(table, number, payer).pk).update(net=F("net") - money(amount))
        Result.objects.filter(pk=row(table, number, payee).pk).update(net=F("net") + money(amount))


# What a constraint the database keeps takes to break: the test's transaction to drop it in.
ON_POSTGRESQL = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="drops a unique constraint inside the test's transaction, which PostgreSQL rolls "
    "back with it (DATABASE_URL=postgres://...); SQLite cannot drop one in place",
)


def drop_unique(table: str, column: str) -> None:
    """Drop the unique constraint on ``table``'s ``column`` (PostgreSQL): in the test's
    transaction, which gives it back when it rolls back."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
        (name,) = [
            name
            for name, constraint in found.items()
            if constraint["unique"]
            and not constraint["primary_key"]
            and constraint["columns"] == [column]
        ]
        cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')


@contextmanager
def unchecked(table: str, constraint: str) -> Iterator[None]:
    """Writes inside may break ``table``'s check ``constraint``: on PostgreSQL it is dropped
    in the test's transaction (given back when it rolls back), on SQLite every check is
    ignored until the end."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{constraint}"')
            yield
            return
        cursor.execute("PRAGMA ignore_check_constraints = ON")
        try:
            yield
        finally:
            cursor.execute("PRAGMA ignore_check_constraints = OFF")
