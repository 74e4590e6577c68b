"""`manage.py ledger_verify` (issue 46, item 3) on a group's money beside its tables': each
payment of a positive amount between two of its players, in whole chips at the value of a chip
it records if in chips, voided at most once, of a group that is stored; each void of a payment
that is; its balances as its page sums them equal to its tables' rows and payments, and
summing to zero. Each is altered here behind the services' back (tests/tampering.py; what the
database itself refuses, with its constraint dropped) and named in one line, and the command
exits 1. The same data as the services left it agrees: tests/ledger/test_verify.py."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import F
from django.utils import timezone

from ledger.models import Group, Payment, PaymentVoid, Player, Result, TableSession
from tests.ledger.verifying import ON_POSTGRESQL, drop_unique, money, row, unchecked, verify
from tests.tampering import guards_off

pytestmark = pytest.mark.django_db


def at() -> str:
    return f"Group Teahouse (#{Group.objects.get().pk})"


def payment(payer: str, payee: str, amount: str, unit: str = "money") -> Payment:
    return Payment.objects.get(
        payer__name=payer, payee__name=payee, amount=Decimal(amount), unit=unit
    )


def named(paid: Payment) -> str:
    """The payment as a difference names it: as the group's page lists it, and its id."""
    paid.refresh_from_db()
    amount = f"{paid.amount.normalize():f}" if paid.unit == "chips" else f"{paid.amount:.2f}"
    day = f"{timezone.localtime(paid.created):%d/%m/%Y}"
    return (
        f"{at()}: payment #{paid.pk} ({paid.payer} paid {paid.payee} {amount} {paid.unit} on {day})"
    )


# What the database refuses too: broken here with its constraint dropped, on each database in
# its own way.


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("constraint", "altered", "said"),
    [
        ("payment_positive", {"amount": Decimal(-13)}, "its amount is not above 0"),
        ("payment_between_two", {"payee": F("payer")}, "its payer is its payee"),
    ],
)
def test_a_payment_the_database_would_refuse_is_found(tables, constraint, altered, said):
    paid = payment("Celine", "Anna", "13")
    with guards_off(), unchecked("ledger_payment", constraint):
        Payment.objects.filter(pk=paid.pk).update(**altered)

    code, found = verify()

    assert code == 1
    assert found[:-1] == [f"{named(paid)}: {said}"]


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("paid", "altered", "said"),
    [
        (("Anna", "Bob", "3", "chips"), {"chip": None}, "it records no value of a chip"),
        (
            ("Celine", "Anna", "13", "money"),
            {"chip": Decimal(1)},
            "it is in money but records the value of a chip",
        ),
    ],
)
def test_a_payment_whose_chip_is_not_its_unit_s_is_found(tables, paid, altered, said):
    paid = payment(*paid)
    with guards_off(), unchecked("ledger_payment", "payment_chip_with_chips"):
        Payment.objects.filter(pk=paid.pk).update(**altered)

    code, found = verify()

    assert code == 1
    assert f"{named(paid)}: {said}" in found


def test_a_payment_in_part_of_a_chip_is_found(tables):
    paid = payment("Anna", "Bob", "3", "chips")
    with guards_off():
        Payment.objects.filter(pk=paid.pk).update(amount=Decimal("2.5"))

    code, found = verify()

    assert code == 1
    assert found[:-1] == [f"{named(paid)}: it is not a whole number of chips"]


def test_a_payment_to_someone_not_of_the_group_is_found(tables):
    # Anna of the lone table: another Anna, not the group's.
    paid = payment("Celine", "Anna", "13")
    stranger = Player.objects.get(table=tables["lone"], name="Anna")
    with guards_off():
        Payment.objects.filter(pk=paid.pk).update(payee=stranger)

    code, found = verify()

    assert code == 1
    assert found[:-1] == [
        f"{named(paid)}: its payee Anna is not of the group",
        f"{at()}: not checked: its balances name player #{stranger.pk}, not of the group",
    ]


@ON_POSTGRESQL
@pytest.mark.both_databases
def test_a_payment_voided_twice_is_found(tables):
    paid = payment("Bob", "Anna", "1")
    with guards_off():
        drop_unique("ledger_paymentvoid", "payment_id")
        PaymentVoid.objects.create(payment=paid, reason="again")

    code, found = verify()

    assert code == 1
    assert found[:-1] == [f"{named(paid)}: it is voided 2 times"]


@ON_POSTGRESQL
@pytest.mark.both_databases
def test_a_payment_or_a_void_of_nothing_stored_is_found(tables):
    # Only without the foreign keys (a replica's writes): no group's check reads them.
    paid = payment("Celine", "Anna", "13")
    with guards_off():
        stray = Payment.objects.create(
            group_id=paid.group_id + 1000, payer=paid.payer, payee=paid.payee, amount=1
        )
        void = PaymentVoid.objects.create(payment_id=stray.pk + 1000)

    code, found = verify()

    assert code == 1
    assert found[:-1] == [
        f"Payment #{stray.pk}: its group #{paid.group_id + 1000} is not stored",
        f"Payment void #{void.pk}: its payment #{stray.pk + 1000} is not stored",
    ]


# The balances


def test_balances_that_leave_out_a_table_s_rows_are_found(tables):
    # The money table made one for points only behind the services' back: the page's
    # balances no longer count its rows, which are in money.
    with guards_off():
        TableSession.objects.filter(pk=tables["money"].pk).update(options={"stake": "0"})

    code, found = verify()

    group = [line.removeprefix(f"{at()}: ") for line in found if line.startswith("Group")]
    assert code == 1
    assert [line.split(":")[0] for line in group] == [
        "Anna's money",
        "Bob's money",
        "Celine's money",
    ]
    assert all(", its tables' rows and payments give " in line for line in group)


@pytest.mark.both_databases
def test_balances_that_do_not_sum_to_zero_are_found(tables):
    # On PostgreSQL the sum trigger refuses this unless it is switched off (a replica's
    # writes); SQLite's check runs when the services write.
    table = tables["chips"]
    with guards_off():
        Result.objects.filter(pk=row(table, 1, "Anna").pk).update(net=F("net") + money("0.5"))

    code, found = verify()

    assert code == 1
    assert f"{at()}: its balances sum to 0.50, not 0" in found
