"""Close the evening (issue 47, item 8), the organiser's: first what the ledger found at the
evening's tables (one left open, a gap in its hands' numbers, one locked short of its end),
then, the evening closed (its open tables locked), the recap: its tables with their results,
who won it, the settle-up, Share and the CSV. A member may not close it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ledger.groups import services
from ledger.models import Hand, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand, start_group, start_table
from tests.tampering import guards_off


@pytest.fixture
def organiser(db) -> Client:
    return Client()


def test_the_ledger_says_what_it_found_then_closes_and_recaps_the_evening(organiser):
    group = start_group(organiser)  # 0.50 a point
    first = services.table_start(
        group=group, seating=THREE, first="Anna", options={"play_to": "500"}
    )
    table_services.hand_record(session=first, number=1, data=hand(2, 12, 20))  # +14 -1 -13
    table_services.table_lock(session=first, locked=True)  # short of its 500
    second = start_table(organiser, group, THREE)
    for number, pips in ((1, (12, 2, 20)), (2, (12, 2, 20)), (3, (2, 12, 20))):
        table_services.hand_record(session=second, number=number, data=hand(*pips))
    with guards_off():  # a gap the app never leaves: hand 2 moved to 4
        Hand.objects.filter(session=second, number=2).update(number=4)
    url = f"/g/{group.token}/evening/"
    member = Client()
    member.get(f"/g/{group.token}/")
    assert member.get(url).status_code == 403 and member.post(url).status_code == 403
    assert 'id="close-evening-link"' in organiser.get(f"/g/{group.token}/").content.decode()

    page = organiser.get(url).content.decode()

    found = re.findall(r'<li class="finding-(\w+)">', page)
    assert found == ["short", "open", "gap"]
    assert "has no hand 2." in page

    closed = organiser.post(url)

    assert closed.status_code == 302 and closed["Location"] == f"{url}?closed=1"
    assert TableSession.objects.get(pk=second.pk).locked
    recap = organiser.get(closed["Location"]).content.decode()
    assert "The evening is closed" in recap
    # +14 -1 -13, then -1 +14 -13 twice and +14 -1 -13: Anna +26, Bob +26, Celine -52
    assert re.search(r'id="evening-winner">Won the evening: Anna \+26</p>', recap)
    assert "Celine pays Anna 26" in recap and "Celine pays Bob 26" in recap
    assert 'id="share-text"' in recap and f"/g/{group.token}/export/tables.csv" in recap


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant", "ko"])
def test_the_evening_reads_in_the_readers_language(organiser, language):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE)
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))

    page = organiser.get(f"/g/{group.token}/evening/", HTTP_ACCEPT_LANGUAGE=language)

    body = page.content.decode().split("<main", 1)[1].split('<textarea id="share-text"')[0]
    body = body.replace(group.name, "")
    spoken = re.sub(r"Anna|Bob|Celine|Jie Long|CSV", "", re.sub(r"<[^>]+>", " ", body))
    assert not re.search(r"[A-Za-z]{2,}", spoken), spoken
