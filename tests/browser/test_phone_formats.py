"""Dates and times as the phone writes them (issue 45, item 15): an English page is read on
en-GB phones and en-US phones alike, and Django's formats for English are the US's; so a
payment's day and a change's time in a table's history are written again in the phone's
language and region (ledger.js, from <time datetime>)."""

from __future__ import annotations

import re
from datetime import UTC

import pytest
from playwright.sync_api import expect

from ledger.groups import services as group_services
from ledger.models import TableSession
from ledger.tables import services
from tests.tables.conftest import plain_hand


@pytest.fixture
def paid(transactional_db):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob", "Celine"], first="Anna")
    payment = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="5")
    return group, payment.payment


@pytest.mark.parametrize(("phone", "day"), [("en-GB", "%d/%m/%Y"), ("en-US", "%m/%d/%Y")])
def test_a_payments_day_is_written_as_the_phones_region_writes_it(new_context, paid, phone, day):
    group, payment = paid
    page = new_context(locale=phone, timezone_id="UTC").new_page()

    page.goto(f"/g/{group.token}/")

    written = payment.created.astimezone(UTC).strftime(day)
    expect(page.locator(f"#payment-{payment.pk} time")).to_have_text(written)
    page.goto(f"/g/{group.token}/payments/")
    expect(page.locator(f"#payment-{payment.pk} time")).to_have_text(written)


@pytest.mark.parametrize(
    ("phone", "clock"),
    [
        ("en-GB", r"^\d\d/\d\d/\d{4}, \d\d:\d\d:\d\d$"),  # 24 hours
        ("en-US", r"^\d\d/\d\d/\d{4}, \d\d:\d\d:\d\d\s[AP]M$"),  # 12 hours
        ("zh-CN", r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d$"),
    ],
)
def test_a_tables_history_writes_its_times_as_the_phone_does(
    new_context, transactional_db, phone, clock
):
    seating = ["Anna", "Bob", "Celine", "Dominic"]
    table = services.session_create(game="jie-long", options={}, seating=seating, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    page = new_context(locale=phone).new_page()

    page.goto(f"/t/{table.token}/history/")
    expect(page.locator("#history time")).to_have_text(re.compile(clock))
    page.goto(f"/t/{table.token}/hands/1/")
    expect(page.locator("main ol time").first).to_have_text(re.compile(clock))
    assert TableSession.objects.count() == 1
