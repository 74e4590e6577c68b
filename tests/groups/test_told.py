"""Changes are told (issue 47, item 7): a correction or void of an earlier hand is told on every
phone of its table and its group: who changed it (their phone's name), which hand, and how the
totals moved ("Bob's phone corrected hand 1: Anna +56 → +26, Bob −4 → +26"). The notice is in
the table's live part and the group's balances, the same for every phone; ledger.js shows it
once on each phone but the one that made it (tests/browser/test_told.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ledger.groups import services
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand

pytestmark = pytest.mark.both_databases  # the totals the database sums


def told(page: str) -> str | None:
    found = re.search(
        r'<p id="told" class="notice hidden" role="status" data-change="\d+">(.*?)</p>', page, re.S
    )
    return found[1].replace("&#x27;", "'") if found else None


def test_a_correction_and_a_void_are_told_with_who_which_hand_and_how_the_totals_moved(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    table = services.table_start(group=group, seating=THREE, first="Anna")
    # At 1 a point, pairwise: pips 2, 12, 20 are Anna +28, Bob -2, Celine -26.
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))
    table_services.hand_record(session=table, number=2, data=hand(2, 12, 20))
    phone = Client()
    assert told(phone.get(f"/t/{table.token}/").content.decode()) is None

    # Hand 1 becomes 12, 2, 20: Anna -2, Bob +28, Celine -26 (Celine's total does not move).
    table_services.hand_correct(
        session=table, number=1, data=hand(12, 2, 20), version=1, device="Bob's phone"
    )

    said = "Bob's phone corrected hand 1: Anna +56 → +26, Bob −4 → +26"
    assert told(phone.get(f"/t/{table.token}/").content.decode()) == said
    assert told(phone.get(f"/t/{table.token}/live/").content.decode()) == said
    assert told(phone.get(f"/g/{group.token}/").content.decode()) == said

    table_services.hand_void(session=table, number=2, version=1)

    said = "Another phone voided hand 2: Anna +26 → −2, Bob +26 → +28, Celine −52 → −26"
    assert told(phone.get(f"/t/{table.token}/").content.decode()) == said
    assert told(phone.get(f"/g/{group.token}/").content.decode()) == said


def test_a_change_is_told_in_the_readers_language(db):
    table = table_services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))
    table_services.hand_void(session=table, number=1, version=1)

    page = Client().get(f"/t/{table.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    said = told(page)
    assert said and not re.search(r"[A-Za-z]{2,}", re.sub(r"Anna|Bob|Celine", "", said)), said
