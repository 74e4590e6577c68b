"""A group adds money, not chip counts (rules rev 5; issue 45, item 7). Chip tables at 0.35,
0.50, 1 and 2 a chip were added as counts: a balance of chips worth nothing in particular, a
settle-up in chips. Now the balance and the settle-up are one amount of money, each chip table
counted at its own chip's value, on the group's page, in the API, the CSV, the statistics, the
share text and a player's account; a chip table shows its chips with their money beside them;
a payment in chips is whole chips, counted at its chip's value."""

from __future__ import annotations

import csv
import html
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ledger.groups import exports, selectors, services, stats
from ledger.groups.models import Group
from ledger.tables import services as table_services

# Depends on the database: balances are the database's sums of result rows and payments.
pytestmark = pytest.mark.both_databases

THREE = ["Bob", "Celine", "Eva"]
VALUES = ("0.35", "0.50", "1", "2")


def won_by_bob(table) -> None:
    """One hand that Bob wins: each of the others pays him one chip."""
    data = {"results": {"Bob": {"pips": 2}, "Celine": {"pips": 12}, "Eva": {"pips": 20}}}
    table_services.hand_record(session=table, number=1, data=data)


@pytest.fixture
def chips(db) -> Group:
    """A group whose four chip tables are at 0.35, 0.50, 1 and 2 a chip, Bob winning each."""
    group = services.group_create(name="Chips", game="jie-long", options={"payment": "chips"})
    for value in VALUES:
        table = services.table_start(
            group=group, seating=THREE, first="Bob", options={"payment": "chips", "chip": value}
        )
        won_by_bob(table)
    return group


# Bob: 2 chips at each table, 8 in all, worth 2 x (0.35 + 0.50 + 1 + 2) = 7.70.
BALANCES = {"Bob": Decimal("7.70"), "Celine": Decimal("-3.85"), "Eva": Decimal("-3.85")}


def test_the_balance_is_money_each_chip_table_at_its_own_value(chips):
    ledger = selectors.ledger(chips)
    assert ledger.money == BALANCES
    assert not hasattr(ledger, "chips")
    transfers = {(t.payer, t.payee, t.amount) for t in ledger.settle_up()}
    assert transfers == {("Celine", "Bob", Decimal("3.85")), ("Eva", "Bob", Decimal("3.85"))}
    # Each table still shows its own chips, with their money beside them.
    line = next(line for line in ledger.tables if line.value == Decimal("0.35"))
    assert line.net["Bob"] == 2 and line.money["Bob"] == Decimal("0.70")


def test_the_group_page_shows_money_and_each_table_s_chips_with_their_money(chips):
    page = Client().get(f"/g/{chips.token}/").content.decode()
    balances = page[page.index('id="balances"') :]
    assert '<th scope="col" class="num">Chips</th>' not in balances
    assert "Settle up in chips" not in page
    assert re.search(r'data-unit="money">\+7\.70<', balances)
    assert "Celine pays Bob 3.85" in balances and "Eva pays Bob 3.85" in balances
    assert "Bob +2 chips (+0.70)" in page  # the 0.35 table
    assert "Bob +2 chips (+4)" in page  # the table at 2 a chip


def test_the_api_csv_and_statistics_give_one_amount_of_money(chips):
    body = APIClient().get(f"/api/v1/groups/{chips.token}/").json()
    assert {name: Decimal(str(v)) for name, v in body["balances"].items()} == BALANCES
    assert "chips" not in body and "settle_up_chips" not in body
    assert {(t["from"], t["to"], Decimal(str(t["amount"]))) for t in body["settle_up"]} == {
        ("Celine", "Bob", Decimal("3.85")),
        ("Eva", "Bob", Decimal("3.85")),
    }
    reply = exports.response(chips, "balances")
    text = b"".join(reply.streaming_content).decode("utf-8")[1:]
    found = list(csv.reader(io.StringIO(text)))
    assert found[0][:2] == ["player", "money"] and "chips" not in found[0]
    assert {row[0]: Decimal(row[1]) for row in found[1:]} == BALANCES
    bob = {one.name: one for one in stats.player_stats(chips)}["Bob"]
    assert bob.money == Decimal("7.70")
    assert (bob.best_table.unit, bob.best_table.amount, bob.best_table.money) == (
        "chips",
        2,
        4,
    )  # at 2 a chip, the best in money, though every table gave him 2 chips


def test_the_share_text_and_the_account_add_money(chips):
    page = Client().get(f"/g/{chips.token}/").content.decode()
    found = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    share = html.unescape(found[1])
    assert "Balances: Bob +7.70" in share and "chips" not in share
    assert "Bob +0.70" in share  # the 0.35 table, in money as the balances
    bob = selectors.ledger(chips).ids["Bob"]
    account = Client().get(f"/g/{chips.token}/players/{bob}/").content.decode()
    assert "+2 chips (+0.70)" in account
    assert "+7.70" in account and "Chips:" not in account


def test_a_payment_in_chips_is_whole_chips(chips):
    with pytest.raises(services.Refused) as refused:
        services.payment_record(
            group=chips, payer="Eva", payee="Celine", amount="2.50", unit="chips", chip="0.50"
        )
    assert refused.value.field == "amount"
    assert "whole number of chips" in refused.value.message
    response = Client().post(
        f"/g/{chips.token}/payments/new/",
        {"payer": "Eva", "payee": "Celine", "amount": "2.50", "unit": "chips", "chip": "0.50",
         "key": "k" * 16},
    )  # fmt: skip
    assert response.status_code == 400
    assert "whole number of chips" in response.content.decode()
    api = APIClient().post(
        f"/api/v1/groups/{chips.token}/payments/",
        {"from": "Eva", "to": "Celine", "amount": "2.50", "unit": "chips", "chip": "0.50"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 16,
    )
    assert api.status_code == 400 and api.json()["path"] == "amount"
    assert not chips.payments.exists()


def test_a_payment_in_chips_moves_the_balance_by_its_chips_worth(chips):
    # The group's chips have four values: which these are must be said.
    with pytest.raises(services.Refused) as refused:
        services.payment_record(group=chips, payer="Eva", payee="Bob", amount="14", unit="chips")
    assert refused.value.field == "chip"
    assert "0.35 / 0.50 / 1 / 2" in refused.value.message
    assert not chips.payments.exists()

    made = services.payment_record(
        group=chips, payer="Eva", payee="Bob", amount="14", unit="chips", chip="0.50"
    ).payment
    assert (made.amount, made.chip, made.worth) == (14, Decimal("0.50"), 7)
    ledger = selectors.ledger(chips)
    assert ledger.money["Eva"] == BALANCES["Eva"] + 7
    assert ledger.money["Bob"] == BALANCES["Bob"] - 7
    page = Client().get(f"/g/{chips.token}/").content.decode()
    assert "Eva paid Bob 14 chips (7)" in page


def test_a_group_whose_chips_have_one_value_counts_a_payment_in_chips_at_it(db):
    group = services.group_create(
        name="Halves", game="jie-long", options={"payment": "chips", "chip": "0.50"}
    )
    won_by_bob(services.table_start(group=group, seating=THREE, first="Bob"))
    made = services.payment_record(
        group=group, payer="Celine", payee="Bob", amount="1", unit="chips"
    ).payment
    assert made.chip == Decimal("0.50")
    assert selectors.ledger(group).money == {
        "Bob": Decimal("0.50"),
        "Celine": 0,
        "Eva": Decimal("-0.50"),
    }
