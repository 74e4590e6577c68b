"""A settle-up you can act on (issue 47, item 4): each line's *Paid* is a payment filled in from
the line, payer, payee and amount, that a second tap records; the amount may be changed for
part of it. Its form is folded (``<details>``): one tap shows it and records nothing."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.test import Client

from ledger.groups import selectors
from ledger.groups.models import Group, Payment
from tests.groups.test_pages import played, start_group


@pytest.fixture
def organiser(db) -> Client:
    """The phone that started the group."""
    return Client()


def paid_forms(client: Client, group: Group) -> dict[tuple[str, str], dict[str, str]]:
    """Each settle-up line's Paid form as the page sends it: (payer, payee) -> its fields."""
    page = client.get(f"/g/{group.token}/").content.decode()
    forms = {}
    for line in re.findall(r'<details class="paid-line".*?</details>', page, re.S):
        assert "<summary>Paid</summary>" in line  # folded: its first tap only shows it
        fields = dict(re.findall(r'name="(\w+)" (?:id="[^"]*" )?value="([^"]*)"', line))
        fields = {name: unescape(value) for name, value in fields.items()}
        forms[fields["payer"], fields["payee"]] = fields
    return forms


@pytest.mark.both_databases
def test_a_settle_up_line_is_paid_as_it_says_once_however_often_it_is_sent(organiser):
    group = start_group(organiser)
    played(group)  # 0.50 a point: Celine pays Anna 13, Bob pays Anna 1

    forms = paid_forms(organiser, group)

    assert set(forms) == {("Celine", "Anna"), ("Bob", "Anna")}
    celine = forms["Celine", "Anna"]
    assert celine["amount"] == "13" and celine["unit"] == "money" and len(celine["key"]) >= 16
    assert forms["Bob", "Anna"]["key"] != celine["key"]
    url = f"/g/{group.token}/payments/new/"
    assert organiser.post(url, celine).status_code == 302
    assert organiser.post(url, celine).status_code == 302  # a double tap: one payment
    assert Payment.objects.get().amount == Decimal(13)
    assert set(paid_forms(organiser, group)) == {("Bob", "Anna")}


def test_part_of_a_line_is_paid_and_the_rest_stays_owed(organiser):
    group = start_group(organiser)
    played(group)
    celine = paid_forms(organiser, group)["Celine", "Anna"]

    organiser.post(f"/g/{group.token}/payments/new/", {**celine, "amount": "10"})

    assert paid_forms(organiser, group)["Celine", "Anna"]["amount"] == "3"
    assert selectors.ledger(group).money["Celine"] == Decimal("-3")


def test_a_paid_line_changed_to_nonsense_says_why_and_stores_nothing(organiser):
    group = start_group(organiser)
    played(group)
    celine = paid_forms(organiser, group)["Celine", "Anna"]

    response = organiser.post(f"/g/{group.token}/payments/new/", {**celine, "amount": "-5"})

    assert response.status_code == 400 and "An amount is more than 0" in response.content.decode()
    assert not Payment.objects.exists()
