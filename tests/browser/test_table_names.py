"""Tables named as people remember them, in the reader's region (issue 37, items 1 and 8): the
server writes when a table began in the page's language; the phone rewrites it by its own
region and clock, on the group's page and on the home page's list of this phone's tables."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from ledger.groups import services
from ledger.models import TableSession
from ledger.tables import services as table_services

THREE = ["Anna", "Bob", "Celine"]
EVENING = datetime(2026, 11, 28, 20, 10, tzinfo=UTC)  # a Saturday, 20:10 in London


@pytest.fixture
def evening(transactional_db) -> tuple[str, TableSession]:
    group = services.group_create(name="Saturday", game="jie-long", options={"stake": "0.50"})
    table = services.table_start(group=group, seating=THREE, first="Anna")
    # Anna 2, Bob 12, Celine 20 at 0.50 a point, pairwise: Anna +14, Bob -1, Celine -13.
    data = {"results": {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 20}}}
    table_services.hand_record(session=table, number=1, data=data)
    TableSession.objects.filter(pk=table.pk).update(created=EVENING)
    return f"/g/{group.token}/", table


def test_an_en_gb_phone_reads_day_month_year_on_the_group_page_and_the_home_page(
    new_context, evening, shot
):
    group, table = evening
    page = new_context(locale="en-GB", timezone_id="Europe/London").new_page()
    page.goto(group)
    expect(page.locator(f"#table-{table.pk} time")).to_have_text("Sat, 28/11/2026, 20:10")
    expect(page.locator(f"#table-{table.pk}")).to_contain_text(
        "Sat, 28/11/2026, 20:10 · Jie Long 接龙 · Anna +14 · Bob −1 · Celine −13 · 1 hand"
    )
    shot(page, "group")
    # A hand saved on another phone: the group's latest tables come again from the server,
    # and are written in the phone's region again.
    data = {"results": {"Anna": {"pips": 12}, "Bob": {"pips": 2}, "Celine": {"pips": 20}}}
    table_services.hand_record(session=table, number=2, data=data)
    page.evaluate("htmx.trigger(document.body, 'ledger-changed')")
    expect(page.locator(f"#table-{table.pk}")).to_contain_text(
        "Sat, 28/11/2026, 20:10 · Jie Long 接龙 · Anna +13 · Bob +13 · Celine −26 · 2 hands"
    )
    page.goto(f"/t/{table.token}/")
    page.goto("/")
    expect(page.locator("#your-tables-list > li > a").first).to_have_text(
        "Sat, 28/11/2026, 20:10 · Jie Long 接龙 — Anna +13 · Bob +13 · Celine −26"
    )
    shot(page, "home")


@pytest.mark.parametrize(
    ("locale", "zone", "when"),
    [
        # 20:10 in London is 04:10 the next morning in Shanghai, 05:10 in Seoul.
        ("zh-CN", "Asia/Shanghai", "2026/11/29周日 04:10"),
        ("ko-KR", "Asia/Seoul", "2026. 11. 29. (일) 05:10"),
    ],
)
def test_a_chinese_or_korean_phone_reads_a_table_s_time_on_its_clock_without_english(
    new_context, evening, locale, zone, when
):
    group, table = evening
    page = new_context(locale=locale, timezone_id=zone).new_page()
    page.goto(group)
    shown = page.locator(f"#table-{table.pk} time")
    expect(shown).to_have_text(when)
    assert not re.search(r"[A-Za-z]", shown.inner_text())
