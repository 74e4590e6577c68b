"""A table's, a player's and a group's money is the database's SUM of rows, exact on SQLite
too: amounts are stored as whole ten-thousandths (ledger.amounts), which SQLite adds as
integers where it added a decimal column's floats (sixty-three hands at 0.10 came to
-6.30000000000002 for a player who lost -6.30)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Sum
from django.urls import reverse

from ledger.amounts import MOST, AmountField
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Hand, Payment, Player, Result, TableSession
from ledger.tables import money, services
from tests.tables.conftest import SEATING, form_post, plain_hand

pytestmark = [pytest.mark.both_databases, pytest.mark.django_db]

# Scores Ce Deng allows, turned round the table hand after hand.
SCORES = [(2, 12, 34, 18), (20, 2, 5, 40), (12, 18, 2, 34), (34, 40, 20, 2), (5, 2, 12, 18)]


def _played(hands: int) -> group_services.Group:
    group = group_services.group_create(name="Tuesdays", game="ce-deng", options={"stake": "0.10"})
    table = group_services.table_start(
        group=group, seating=SEATING, first="Anna", options={"stake": "0.10"}
    )
    for number in range(1, hands + 1):
        scores = SCORES[number % len(SCORES)]
        pips = dict(zip(SEATING, scores[number % 4 :] + scores[: number % 4], strict=True))
        services.hand_record(session=table, number=number, data=plain_hand(**pips))
    for amount in ("0.1", "0.2", "0.1", "0.0333", "0.1"):
        group_services.payment_record(group=group, payer="Bob", payee="Anna", amount=amount)
    return group


def _rows_added_in_python(group: group_services.Group) -> dict[int, Decimal]:
    """Each player's rows, each read on its own (exact on both databases) and added here."""
    added: dict[int, Decimal] = {}
    for player, net in Result.objects.filter(session__group=group).values_list("player", "net"):
        added[player] = added.get(player, Decimal(0)) + net
    return added


def test_sixty_three_hands_at_ten_cents_sum_exactly_in_the_database():
    group = _played(63)
    table = group.tables.get()
    added = _rows_added_in_python(group)

    summed = money.sums([table.pk])

    assert {player: s.net for (_, player), s in summed.items()} == added
    assert all(s.net.as_tuple().exponent == -4 for s in summed.values())
    assert sum(s.net for s in summed.values()) == 0


def test_the_group_s_balances_are_the_exact_sum_of_its_rows_and_payments():
    group = _played(63)
    added = _rows_added_in_python(group)
    names = dict(group.players.values_list("pk", "name"))
    paid = Decimal("0.1") + Decimal("0.2") + Decimal("0.1") + Decimal("0.0333") + Decimal("0.1")

    ledger = group_selectors.ledger(group)

    expected = {names[player]: net for player, net in added.items()}
    expected["Anna"] -= paid
    expected["Bob"] += paid
    assert ledger.money == expected
    assert sum(ledger.money.values()) == 0


def test_a_sum_comes_back_as_a_decimal_of_four_places_alone_grouped_and_over_payments():
    group = _played(12)
    rows = Result.objects.filter(session__group=group)
    added = _rows_added_in_python(group)

    whole = rows.aggregate(total=Sum("net"))["total"]
    grouped = dict(rows.order_by().values("player").annotate(total=Sum("net")).values_list(
        "player", "total"
    ))  # fmt: skip
    payments = Payment.objects.filter(group=group).aggregate(total=Sum("amount"))["total"]

    assert whole == Decimal(0) and str(whole) == "0.0000"
    assert grouped == added
    assert all(isinstance(v, Decimal) and v.as_tuple().exponent == -4 for v in grouped.values())
    assert payments == Decimal("0.5333") and str(payments) == "0.5333"


def test_an_amount_is_stored_as_whole_ten_thousandths():
    field = AmountField()

    assert field.get_prep_value(Decimal("0.1")) == 1000
    assert field.get_prep_value("-12.3456") == -123456
    assert field.from_db_value(-123456, None, None) == Decimal("-12.3456")
    with pytest.raises(ValueError, match="more than 4 decimal places"):
        field.get_prep_value(Decimal("0.00001"))


def _near_the_most(client) -> TableSession:
    """A table at the largest stake where Anna has won from Bob nearly the most a 64-bit
    integer holds in ten-thousandths: hand 1 as played (5.8 x 10^10 to Anna) and two rows of it
    written behind the services' back, as a thousand of the costliest hands would add up."""
    table = services.session_create(
        game="ce-deng", options={"stake": "1000000000"}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=table, number=1, data=plain_hand())
    hand = Hand.objects.get(session=table, number=1)
    for name, net in (("Anna", MOST - 10**11), ("Bob", -(MOST - 10**11))):
        player = Player.objects.get(table=table, name=name)
        Result.objects.create(session=table, hand=hand, player=player, net=net)
    return table


def _hand_two(client, table: TableSession):
    return client.post(
        f"/api/v1/sessions/{table.token}/hands/",
        {"number": 2, "hand": plain_hand()},  # 5.8 x 10^10 to Anna again
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="past-the-most",
    )


@pytest.mark.skipif(
    connection.vendor == "postgresql",
    reason="SQLite's SUM of integers raises past 64 bits; on PostgreSQL it sums as numeric: "
    "test_postgresql_sums_a_player_s_rows_past_64_bits_exactly",
)
def test_sqlite_refuses_a_hand_that_would_take_a_player_s_sums_past_64_bits(client):
    table = _near_the_most(client)

    response = _hand_two(client, table)

    assert response.status_code == 400
    assert "start a new table to play on" in response.json()["error"]
    assert not Hand.objects.filter(session=table, number=2).exists()
    anna = Player.objects.get(table=table, name="Anna")
    assert money.sums([table.pk])[table.pk, anna.pk].net == MOST - 10**11 + 58 * 10**9


@pytest.mark.skipif(
    connection.vendor == "postgresql",
    reason="SQLite's SUM of integers raises past 64 bits; on PostgreSQL it sums as numeric: "
    "test_postgresql_sums_a_player_s_rows_past_64_bits_exactly",
)
def test_the_table_page_refuses_it_in_the_reader_s_language(client):
    table = _near_the_most(client)

    response = client.post(
        reverse("table", args=[table.token]),
        form_post(2, direction="cw"),
        HTTP_ACCEPT_LANGUAGE="ko",
    )

    assert response.status_code == 400
    assert "계속하려면 새 테이블을 시작하세요" in response.content.decode()
    assert not Hand.objects.filter(session=table, number=2).exists()


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL's sum of bigint (DATABASE_URL=postgres://...); SQLite refuses the hand: "
    "test_sqlite_refuses_a_hand_that_would_take_a_player_s_sums_past_64_bits",
)
def test_postgresql_sums_a_player_s_rows_past_64_bits_exactly(client):
    table = _near_the_most(client)

    assert _hand_two(client, table).status_code == 201

    anna = Player.objects.get(table=table, name="Anna")
    assert money.sums([table.pk])[table.pk, anna.pk].net == MOST - 10**11 + 2 * 58 * 10**9
