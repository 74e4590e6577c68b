"""A group's running ledger (issue 20, items 3 and 4, services): tables started from the group
seat its players, balances are sums of the tables' result rows in the unit each table pays in,
payments move them (once, however often sent) and a void moves them back; two groups' Annas
are two people; the ledger costs the same few queries however many tables it has."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.groups import selectors, services
from ledger.models import Player
from ledger.tables import services as table_services
from scoring import ScoringError

# both_databases on the tests of the balances and the tables' lines (sums the database makes of
# the result rows and payments, in a fixed number of queries) and of a payment's key. The
# refusals before anything is stored and playing again run once.

THREE = ["Anna", "Bob", "Celine"]


def hand(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


def played(table, *hands) -> None:
    for number, data in enumerate(hands, start=1):
        table_services.hand_record(session=table, number=number, data=data)


@pytest.fixture
def friends(db):
    return services.group_create(name="Thursday teahouse", game="jie-long", options={"stake": "1"})


@pytest.mark.both_databases
def test_balances_are_one_amount_of_money_each_chip_table_at_its_own_value(friends):
    money = services.table_start(group=friends, seating=THREE, first="Anna")
    # Pairwise at 1 a point: Anna 2, Bob 12, Celine 20 -> Anna +28, Bob -2, Celine -26.
    played(money, hand(2, 12, 20))
    chips = services.table_start(
        group=friends,
        seating=["anna", "BOB", "Celine"],  # the group's Anna and Bob, however typed
        first="Anna",
        options={"payment": "chips", "chip": "0.50"},
    )
    # Chips: each loser pays the winner one chip (0.50 each): Bob wins with 5.
    played(chips, hand(9, 5, 20))
    points = services.table_start(
        group=friends, seating=THREE, first="Anna", options={"stake": "0"}
    )
    played(points, hand(12, 2, 20))

    ledger = selectors.ledger(friends)
    assert ledger.players == THREE
    # The chips at 0.50 each: Anna -0.50, Bob +1, Celine -0.50; points-only tables add nothing.
    assert ledger.money == {"Anna": Decimal("27.50"), "Bob": -1, "Celine": Decimal("-26.50")}
    line = next(line for line in ledger.tables if line.pk == chips.pk)
    assert line.net == {"Anna": -1, "Bob": 2, "Celine": -1}  # its chips, shown as chips
    assert line.money == {"Anna": Decimal("-0.50"), "Bob": 1, "Celine": Decimal("-0.50")}
    # Points within one game (all three tables are Jie Long's): 2 + 9 + 12 for Anna.
    assert ledger.points == {"jie-long": {"Anna": 2 + 9 + 12, "Bob": 12 + 5 + 2, "Celine": 60}}
    assert ledger.hands == dict.fromkeys(THREE, 3)
    assert ledger.won == {"Anna": 1, "Bob": 2, "Celine": 0}
    assert Player.objects.filter(group=friends).count() == 3


@pytest.mark.both_databases
def test_payments_bring_everyone_to_zero_once_and_a_void_takes_one_back(friends):
    table = services.table_start(group=friends, seating=THREE, first="Anna")
    played(table, hand(2, 12, 20))
    transfers = selectors.ledger(friends).settle_up()
    assert {(t.payer, t.payee, t.amount) for t in transfers} == {
        ("Bob", "Anna", 2),
        ("Celine", "Anna", 26),
    }
    for t in transfers:
        for _ in range(3):  # three phones, or three taps: recorded once
            services.payment_record(
                group=friends, payer=t.payer, payee=t.payee, amount=t.amount,
                idempotency_key=f"settle-{t.payer}",
            )  # fmt: skip
    assert friends.payments.count() == 2
    assert set(selectors.ledger(friends).money.values()) == {0}
    assert selectors.ledger(friends).settle_up() == ()

    services.payment_void(payment=friends.payments.get(payer__name="Bob"))
    assert selectors.ledger(friends).money == {"Anna": 2, "Bob": -2, "Celine": 0}
    assert friends.payments.count() == 2  # voided, never deleted
    with pytest.raises(services.Refused):
        services.payment_void(payment=friends.payments.get(payer__name="Bob"))


@pytest.mark.both_databases
def test_the_same_key_for_another_payment_is_refused_and_records_nothing(friends):
    services.table_start(group=friends, seating=THREE, first="Anna")
    services.payment_record(
        group=friends, payer="Bob", payee="Anna", amount="2", idempotency_key="k"
    )
    with pytest.raises(services.KeyReused):
        services.payment_record(
            group=friends, payer="Bob", payee="Anna", amount="3", idempotency_key="k"
        )
    assert friends.payments.count() == 1


@pytest.mark.parametrize(
    ("payer", "payee", "amount", "field"),
    [
        ("Zoe", "Anna", "2", "from"),
        ("Bob", "Bob", "2", "to"),
        ("Bob", "Anna", "0", "amount"),
        ("Bob", "Anna", "-5", "amount"),
        ("Bob", "Anna", "1.00001", "amount"),
        ("Bob", "Anna", "lots", "amount"),
        ("Bob", "Anna", "NaN", "amount"),
    ],
)
def test_a_payment_that_cannot_be_is_refused_and_nothing_is_stored(
    friends, payer, payee, amount, field
):
    services.table_start(group=friends, seating=THREE, first="Anna")
    with pytest.raises(services.Refused) as refused:
        services.payment_record(group=friends, payer=payer, payee=payee, amount=amount)
    assert refused.value.field == field
    assert not friends.payments.exists()


@pytest.mark.both_databases
def test_two_groups_with_the_same_names_stay_apart(friends):
    others = services.group_create(name="Village hall", game="jie-long", options={})
    played(services.table_start(group=friends, seating=THREE, first="Anna"), hand(2, 12, 20))
    played(services.table_start(group=others, seating=THREE, first="Anna"), hand(20, 12, 2))

    assert selectors.ledger(friends).money["Anna"] == 28
    assert selectors.ledger(others).money["Anna"] == -26
    assert Player.objects.filter(name="Anna").count() == 2
    with pytest.raises(services.Refused):  # others' Celine cannot pay in friends' ledger
        services.payment_record(group=friends, payer="Zed", payee="Anna", amount=1)


def test_play_again_seats_the_same_players_with_the_same_rules(friends):
    first = services.table_start(
        group=friends, seating=THREE, first="Bob", options={"stake": "0.25"}
    )
    again = services.play_again(table=first)
    assert (again.seating, again.first, again.options) == (THREE, "Bob", {"stake": "0.25"})
    drawn = services.play_again(table=first, draw=True)
    assert sorted(drawn.seating) == THREE and drawn.first in THREE
    assert Player.objects.filter(group=friends).count() == 3


def test_a_group_needs_a_name_and_rules_the_engine_takes(db):
    with pytest.raises(services.Refused):
        services.group_create(name="  ", game="jie-long", options={})
    with pytest.raises(ScoringError):
        services.group_create(name="A\u202eB", game="jie-long", options={})
    with pytest.raises(ScoringError):
        services.group_create(name="Club", game="jie-long", options={"stake": "-1"})


@pytest.mark.both_databases
def test_the_ledger_costs_the_same_queries_for_one_table_or_twenty(friends):
    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            selectors.ledger(friends)
        return len(seen.captured_queries)

    played(services.table_start(group=friends, seating=THREE, first="Anna"), hand(2, 12, 20))
    services.payment_record(group=friends, payer="Bob", payee="Anna", amount="1")
    few = queries()
    for _ in range(19):
        table = services.table_start(group=friends, seating=THREE, first="Anna")
        played(table, hand(2, 12, 20), hand(5, 5, 20))
        services.payment_record(group=friends, payer="Bob", payee="Anna", amount="1")
        services.payment_record(group=friends, payer="Anna", payee="Bob", amount="1")
    assert queries() == few <= 5
    # Each later table: (2, 12, 20) as the first, then (5, 5, 20): Celine pays Anna and Bob 15;
    # Bob paid Anna 1 more than she paid him.
    assert selectors.ledger(friends).money == {
        "Anna": Decimal(28 + 19 * (28 + 15) - 1),
        "Bob": Decimal(-2 + 19 * (-2 + 15) + 1),
        "Celine": Decimal(-26 + 19 * (-26 - 30)),
    }


@pytest.mark.both_databases
def test_each_table_line_says_what_each_player_won_there(friends):
    money = services.table_start(group=friends, seating=THREE, first="Anna")
    played(money, hand(2, 12, 20), hand(5, 5, 20))
    points = services.table_start(
        group=friends, seating=["Celine", "Bob", "Anna"], first="Bob", options={"stake": "0"}
    )
    played(points, hand(12, 2, 20))

    ledger = selectors.ledger(friends)
    by_pk = {line.pk: line for line in ledger.tables}
    assert by_pk[money.pk].unit == "money" and by_pk[money.pk].hands == 2
    assert by_pk[money.pk].seating == THREE
    assert by_pk[money.pk].net == {"Anna": 43, "Bob": 13, "Celine": -56}
    assert by_pk[points.pk].unit == "points" and by_pk[points.pk].seating == [
        "Celine",
        "Bob",
        "Anna",
    ]
    assert by_pk[points.pk].net == {"Anna": 12, "Bob": 2, "Celine": 20}
    # The balances are the sums of the lines.
    assert ledger.money == {name: by_pk[money.pk].net[name] for name in THREE}
    assert [line.pk for line in ledger.tables] == [points.pk, money.pk]  # the latest first
