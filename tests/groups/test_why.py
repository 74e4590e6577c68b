""" "Why do I owe this?" (issue 47, item 5): each balance and each settle-up line opens the
player's account, where the figure is made of what shows on the screen: the evenings (each its
tables' sum in money), each table with its hands (which add up to the table's figure), and the
payments; and the settle-up lines the balance is in."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from ledger.groups import selectors, services
from ledger.models import Player, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand

pytestmark = pytest.mark.both_databases  # the sums the database makes


def amount(text: str) -> Decimal:
    return Decimal(unescape(text).strip().replace("\u2212", "-").replace(",", ""))


def test_a_balance_is_its_evenings_and_payments_and_a_table_its_hands_on_the_screen(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    last_week = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=last_week, number=1, data=hand(20, 12, 2))
    TableSession.objects.filter(pk=last_week.pk).update(created=timezone.now() - timedelta(days=7))
    tonight = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=tonight, number=1, data=hand(2, 12, 20))  # +14 -1 -13
    table_services.hand_record(session=tonight, number=2, data=hand(12, 2, 20))  # -1 +14 -13
    table_services.hand_correct(session=tonight, number=2, data=hand(2, 2, 20), version=1)
    services.payment_record(group=group, payer="Celine", payee="Anna", amount="5")
    celine = Player.objects.get(group=group, name="Celine")
    balance = selectors.ledger(group).money["Celine"]

    group_page = Client().get(f"/g/{group.token}/").content.decode()
    why = re.search(r'Celine pays \w+ [\d.]+</span>\s*<a class="why" href="([^"]+)"', group_page)
    assert why and why[1] == f"/g/{group.token}/players/{celine.pk}/#player-balance"
    page = Client().get(why[1]).content.decode()

    evenings = [
        amount(m) for m in re.findall(r'class="evening-total".*?<strong>(.*?)</strong>', page, re.S)
    ]
    assert len(evenings) == 2
    paid = [
        amount(m)
        for m in re.findall(r'id="payment-\d+".*?<td class="num[^"]*">(.*?)</td>', page, re.S)
    ]
    assert sum(evenings) + sum(paid) == balance  # on the screen, to the cent
    for table in (last_week, tonight):
        row = re.search(rf'<tr id="table-{table.pk}">(.*?)</tr>', page, re.S)[1]
        hands = [amount(m) for m in re.findall(r"Hand \d+：?:?\s*<span[^>]*>(.*?)</span>", row)]
        figure = amount(re.findall(r'<td class="num[^"]*">(.*?)</td>', row)[-1])
        assert hands and sum(hands) == figure
    assert "Celine pays" in page[page.index('id="player-balance"') :]
