"""Payments in chips stored before a chip had a value (0037) get their chip's value, and every
balance stays what it was worth to the cent: a group whose chips had one value had its balance
in money plus its chips at that value, and has that as one amount of money now. Where the
group's chips had several values, a payment takes the value of the latest chip table started
before it; where no table pays chips, the group's usual chip."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from ledger.groups import selectors, services
from ledger.groups.models import Payment
from ledger.tables import services as table_services
from tests.migrating import migrate, models_at, once

# Depends on the database: a migration run on rows of the schema before it, once for the module.
pytestmark = [pytest.mark.both_databases, pytest.mark.django_db]

BEFORE = ("ledger", "0036_pin_chip_doubles")
THREE = ["Bob", "Celine", "Eva"]


def won_by(table, winner: str) -> None:
    pips = {name: 12 + 8 * i for i, name in enumerate(THREE)} | {winner: 2}
    data = {"results": {name: {"pips": value} for name, value in pips.items()}}
    table_services.hand_record(session=table, number=1, data=data)


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Three groups played and paid under the code of today, then taken back to the schema
    before 0037 (which kept no chip's value), given there a payment of 2.50 chips as it then
    took, and migrated again. Yields the groups and what each player stood at in the schema
    before: money, and chips as a count (chip tables' chips and payments in chips)."""
    with once(django_db_blocker):
        yield _migrated()


def _migrated():
    halves = services.group_create(
        name="Halves", game="jie-long", options={"payment": "chips", "chip": "0.50"}
    )
    won_by(services.table_start(group=halves, seating=THREE, first="Bob"), "Bob")
    won_by(
        services.table_start(group=halves, seating=THREE, first="Bob", options={"stake": "0.25"}),
        "Celine",
    )
    services.payment_record(group=halves, payer="Celine", payee="Bob", amount="3", unit="chips")
    services.payment_record(group=halves, payer="Eva", payee="Celine", amount="1.25")

    mixed = services.group_create(name="Mixed", game="jie-long", options={})
    cheap = {"payment": "chips", "chip": "0.35"}
    won_by(services.table_start(group=mixed, seating=THREE, first="Bob", options=cheap), "Bob")
    services.payment_record(
        group=mixed, payer="Eva", payee="Bob", amount="1", unit="chips", chip="0.35"
    )
    dear = {"payment": "chips", "chip": "2"}
    won_by(services.table_start(group=mixed, seating=THREE, first="Bob", options=dear), "Eva")
    services.payment_record(
        group=mixed, payer="Bob", payee="Eva", amount="2", unit="chips", chip="2"
    )

    usual = services.group_create(
        name="Usual", game="kkoribuchigi", options={"chip": "0.25", "payment": "each"}
    )
    table = services.table_start(group=usual, seating=THREE, first="Bob", options={"stake": "1"},
                                 game="jie-long")  # fmt: skip
    won_by(table, "Bob")
    services.payment_record(
        group=usual, payer="Bob", payee="Eva", amount="4", unit="chips", chip="0.25"
    )

    migrate([BEFORE])
    old = models_at(BEFORE)
    OldPayment = old.get_model("ledger", "Payment")
    Player = old.get_model("ledger", "Player")
    OldPayment.objects.create(
        group_id=halves.pk,
        payer=Player.objects.get(group_id=halves.pk, name="Bob"),
        payee=Player.objects.get(group_id=halves.pk, name="Eva"),
        amount=Decimal("2.50"),
        unit="chips",
    )
    migrate()
    return halves, mixed, usual


def test_a_group_whose_chips_had_one_value_keeps_every_balance_to_the_cent(migrated):
    halves, _, _ = migrated
    # As the schema before added it up, money and chips apart. Money: the table at 0.25 a
    # point (Celine 2, Bob 12, Eva 28: +1.50, +9, -10.50) and Eva's 1.25 to Celine. Chips: the
    # table at 0.50 a chip (Bob +2, the others -1), Celine's 3 chips to Bob, Bob's 2.50 to Eva
    # (a payment raises its payer's balance and lowers its payee's).
    money = {"Bob": Decimal("1.50"), "Celine": Decimal("7.75"), "Eva": Decimal("-9.25")}
    chips = {"Bob": Decimal("1.50"), "Celine": Decimal(2), "Eva": Decimal("-3.50")}
    ledger = selectors.ledger(halves)
    assert ledger.money == {name: money[name] + chips[name] / 2 for name in THREE}
    assert set(halves.payments.filter(unit="chips").values_list("chip", flat=True)) == {
        Decimal("0.50")
    }
    assert halves.payments.get(amount=Decimal("2.50")).worth == Decimal("1.25")


def test_several_values_take_the_latest_chip_table_before_the_payment(migrated):
    _, mixed, _ = migrated
    chips = dict(mixed.payments.order_by("pk").values_list("payer__name", "chip"))
    assert chips == {"Eva": Decimal("0.35"), "Bob": Decimal("2")}


def test_no_chip_table_takes_the_group_s_usual_chip(migrated):
    _, _, usual = migrated
    assert usual.payments.get().chip == Decimal("0.25")


def test_the_database_refuses_a_payment_in_chips_without_a_chip_s_value(migrated):
    halves, _, _ = migrated
    made = halves.payments.filter(unit="chips").first()
    with pytest.raises(IntegrityError, match="payment_chip_with_chips"), transaction.atomic():
        Payment.objects.create(
            group=halves, payer=made.payer, payee=made.payee, amount=1, unit="chips", chip=None
        )
