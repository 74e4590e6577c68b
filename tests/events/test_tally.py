"""Each table's kept tally (ledger.tables.tally): always what its hands add up to, or not used."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.events import selectors
from ledger.events import services as event_services
from ledger.models import Seat, TableSession
from ledger.tables import money, services, tally
from tests.events.test_events import play
from tests.scoring.test_examples import assert_gives, example_names, load
from tests.tables.conftest import plain_hand, stored_hands
from tests.tables.test_concurrency import _at_once

# Depends on the database: a correction and the next hand saved at the same moment, each under the
# table's lock.
pytestmark = pytest.mark.both_databases


def assert_current(table: TableSession) -> tally.Tally:
    """The table's kept tally is current, and says what counting every hand again says."""
    table.refresh_from_db()
    kept = tally.current_tally(table)
    assert kept is not None, table.tally
    again = tally.count(table, stored_hands(table))
    assert tally.stored(table, kept, 0) == tally.stored(table, again, 0)
    return kept


@pytest.mark.parametrize("name", example_names())
def test_every_save_correction_and_void_keeps_the_tally_current(db, name):
    text, expected = load(name)
    document = json.loads(text)
    table = services.session_create(
        game=document["game"],
        options=document.get("options", {}),
        seating=document["seating"],
        first=document["first"],
    )
    assert_current(table)
    hands = document["hands"]

    for number, hand in enumerate(hands, start=1):
        services.hand_record(session=table, number=number, data=hand)
        kept = assert_current(table)
    # The money is the result rows', not the tally's.
    net = money.table_totals(table).net
    assert_gives(expected["totals"]["net"], {name: str(value) for name, value in net.items()})
    assert (kept.recorded, kept.counted, kept.corrected) == (len(hands), len(hands), False)

    last = table.hands.get(number=len(hands))
    services.hand_correct(session=table, number=last.number, data=last.named, version=1)
    assert assert_current(table).corrected
    services.hand_void(session=table, number=last.number, version=2)
    kept = assert_current(table)
    assert (kept.recorded, kept.counted) == (len(hands), len(hands) - 1)


def test_a_tally_not_counted_for_the_table_as_it_is_now_is_not_used(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    ce_deng.refresh_from_db()
    assert tally.current_tally(ce_deng) is not None

    # Seats changed behind the services' back: the kept tally names the old seating.
    anna, bob = Seat.objects.filter(session=ce_deng).order_by("position")[:2]
    Seat.objects.filter(pk=anna.pk).update(position=9)
    Seat.objects.filter(pk=bob.pk).update(position=0)
    Seat.objects.filter(pk=anna.pk).update(position=1)
    table = TableSession.objects.get(pk=ce_deng.pk)
    assert tally.current_tally(table) is None

    TableSession.objects.filter(pk=ce_deng.pk).update(tally={})
    assert tally.current_tally(TableSession.objects.get(pk=ce_deng.pk)) is None


def test_standings_count_a_table_whose_tally_is_not_current_from_its_hands(event):
    played = event_services.round_begin(round=event_services.round_seat(event=event))
    tables = list(played.tables.order_by("table_number"))
    play(tables[0], 2, 12, 34, 18)
    before = [(row.name, row.net, row.hands) for row in selectors.standings(event).rows]

    with CaptureQueriesContext(connection) as current:
        selectors.standings(event)
    TableSession.objects.filter(pk=tables[0].pk).update(tally={})
    with CaptureQueriesContext(connection) as stale:
        after = [(row.name, row.net, row.hands) for row in selectors.standings(event).rows]

    assert after == before and before[0][1] == Decimal(58)
    hand_reads = [q for q in current.captured_queries if "ledger_hand" in q["sql"]]
    # tables, seats, the money (sums, who won what from whom), entries, rounds: no hands
    assert (len(current), hand_reads) == (6, [])
    assert len(stale) == 7


def test_an_admin_correction_of_a_hand_recounts_its_table(admin_client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    hand = ce_deng.hands.get()
    data = plain_hand(Anna=20, Bob=2)

    response = admin_client.post(
        reverse("admin:ledger_hand_correct", args=[hand.pk]),
        {"hand": json.dumps(data), "version": 1},
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert_current(ce_deng)
    assert money.table_totals(ce_deng).scores["Bob"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_correction_and_the_next_hand_saved_at_once_are_both_counted():
    tables = [
        services.session_create(
            game="ce-deng", options={}, seating=["Anna", "Bob", "Celine", "Dominic"], first="Anna"
        )
        for _ in range(8)
    ]
    for table in tables:
        services.hand_record(session=table, number=1, data=plain_hand())

    def work(i: int) -> object:
        table = tables[i // 2]
        if i % 2:
            return services.hand_record(session=table, number=2, data=plain_hand(Bob=4))
        return services.hand_correct(session=table, number=1, data=plain_hand(Celine=20), version=1)

    outcomes = _at_once(2 * len(tables), work)

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    for table in tables:
        kept = assert_current(table)
        assert (kept.counted, kept.corrected) == (2, True)
