"""Tonight and the running balance (issue 47, item 6): the group's first screen shows the
current evening, its tables and who is up or down over them, apart from the balances across
every evening. An evening is the tables started within a few hours of one another
(``EVENING_GAP``), not a calendar day: one past midnight is one evening."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from ledger.groups import selectors, services
from ledger.groups.models import Group
from ledger.models import TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand

pytestmark = pytest.mark.both_databases  # the balances the database sums


def played(group: Group, pips: tuple[int, int, int], started: timedelta) -> TableSession:
    """A table of the group with one hand, started ``started`` ago."""
    table = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(*pips))
    TableSession.objects.filter(pk=table.pk).update(created=timezone.now() - started)
    return table


@pytest.fixture
def group(db) -> Group:
    return services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})


def test_an_evening_past_midnight_is_one_evening_and_a_night_between_makes_two(group):
    # Last week's evening, then tonight's: 22:00, and 00:30 two hours and a half later.
    played(group, (20, 12, 2), timedelta(days=7))
    first = played(group, (2, 12, 20), timedelta(hours=2, minutes=30))
    second = played(group, (12, 2, 20), timedelta(minutes=1))

    evening = selectors.ledger(group).last_evening()

    assert [line.pk for line in evening] == [second.pk, first.pk]
    assert selectors.is_tonight(evening)


def test_tonight_shows_who_is_up_or_down_apart_from_the_running_balance(group):
    played(group, (20, 12, 2), timedelta(days=7))  # Anna -13, Bob -1, Celine +14
    played(group, (2, 12, 20), timedelta(hours=1))  # Anna +14, Bob -1, Celine -13
    played(group, (12, 2, 20), timedelta(minutes=5))  # Anna -1, Bob +14, Celine -13

    page = Client().get(f"/g/{group.token}/").content.decode()

    evening = page[page.index('id="last-evening"') : page.index('id="balances"')]
    assert "<h2>Tonight</h2>" in evening
    said = re.sub(r"<[^>]+>", "", re.search(r'id="evening-money">(.*?)</p>', evening)[1])
    assert said == "Anna +13 · Bob +13 · Celine −26"
    assert selectors.ledger(group).money == {"Anna": 0, "Bob": 12, "Celine": -12}


def test_an_evening_long_over_is_the_last_evening(group):
    played(group, (2, 12, 20), timedelta(days=2))

    page = Client().get(f"/g/{group.token}/").content.decode()

    assert "<h2>The last evening</h2>" in page and "<h2>Tonight</h2>" not in page
