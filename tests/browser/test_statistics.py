"""Statistics for a thumb (issue 37, item 5) on a 360×640 phone: nothing on the page is wider
than the screen, with every fold open; Compare answers in place, without a reload, scrolled
into view, saying what passed between the two players.

The group's amounts are worked out by hand in tests/groups/test_statistics_page.py: at these
hands Bob won 4 from Anna over 3 money hands (here Anna has a name as long as a name may be).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ledger.groups import services
from ledger.models import Group
from ledger.tables import services as table_services
from tests.browser.conftest import PHONE, widest

ANNA = "Alexandrina Konstantinou-Papadopoulou-Ng"  # 40 characters, the most a name may have
THREE = [ANNA, "Bob", "Celine"]


def hand(*pips: int, names: list[str] = THREE) -> dict:
    return {"results": {name: {"pips": p} for name, p in zip(names, pips, strict=True)}}


@pytest.fixture
def group(transactional_db) -> Group:
    found = services.group_create(
        name="Thursday teahouse", game="jie-long", options={"stake": "0.50"}
    )
    first = services.table_start(group=found, seating=THREE, first=ANNA)
    table_services.hand_record(session=first, number=1, data=hand(2, 12, 20))
    table_services.hand_record(session=first, number=2, data=hand(12, 2, 20))
    second = services.table_start(group=found, seating=THREE, first=ANNA)
    table_services.hand_record(session=second, number=1, data=hand(20, 12, 2))
    four = [ANNA, "Celine", "Dominic"]
    third = services.table_start(group=found, seating=four, first=ANNA)
    table_services.hand_record(session=third, number=1, data=hand(2, 20, 12, names=four))
    points = services.table_start(group=found, seating=THREE, first=ANNA, options={"stake": "0"})
    table_services.hand_record(session=points, number=1, data=hand(2, 12, 20))
    return found


def test_statistics_fit_a_phone_and_compare_answers_in_view(page: Page, group, shot, new_context):
    page.goto(f"/g/{group.token}/statistics/")
    # The first screen: the period folded, then the ranked players, the biggest winner first.
    expect(page.locator("#period")).not_to_have_attribute("open", "")
    expect(page.locator("#ranking > li").first.locator(".name")).to_have_text(ANNA)
    assert page.locator("#ranking").bounding_box()["y"] < PHONE["height"]
    widest(page)
    shot(page, "statistics")
    # Every fold open, but the chart's table: a table of days by players, it scrolls in its
    # own box, as the summary's chart's does (tests/browser/test_readable.py).
    page.evaluate(
        "document.querySelectorAll('details:not(#chart-data)').forEach(d => { d.open = true; })"
    )
    widest(page)
    shot(page, "statistics-open")

    # Compare: the answer in place, no reload (a mark left on the window survives), in view.
    page.evaluate("window.stillHere = true")
    page.select_option("#id_a", label=ANNA)
    page.select_option("#id_b", label="Bob")
    page.get_by_role("button", name="Compare").click()
    answer = page.locator("#passed [data-unit=money]")
    expect(answer).to_have_text(f"Bob won 4 from {ANNA} over 3 hands.")
    expect(page.locator("#passed [data-unit=points]")).to_have_text(
        "1 hand was played for points only: nothing passed there."
    )
    assert page.evaluate("window.stillHere") is True
    expect(page.locator("#pair-answer")).to_be_in_viewport()
    box = page.locator("#pair-answer").bounding_box()
    assert 0 <= box["y"] < PHONE["height"]
    assert "a=" in page.url and "b=" in page.url  # the answer has its own address
    widest(page)
    shot(page, "head-to-head")

    # Without JavaScript the form loads the whole page, at its answer.
    plain = new_context(java_script_enabled=False).new_page()
    plain.goto(f"/g/{group.token}/statistics/")
    plain.select_option("#id_a", label=ANNA)
    plain.select_option("#id_b", label="Bob")
    plain.get_by_role("button", name="Compare").click()
    plain.wait_for_url("**#pair-answer")
    expect(plain.locator("#passed [data-unit=money]")).to_have_text(
        f"Bob won 4 from {ANNA} over 3 hands."
    )
    expect(plain.locator("#pair-answer")).to_be_in_viewport()
