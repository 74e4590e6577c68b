"""What the group plays for, at every game (issue 47, item 3), on a 360×640 phone: the
organiser sets half a point on the group's settings page; a Ce Deng table started from the Jie
Long group says so before it starts and plays at it; the change is listed with who made it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, save_hand, widest
from tests.browser.test_groups import start_group

FOUR = ["Anna", "Bob", "Celine", "Dan"]


def test_a_ce_deng_table_of_a_jie_long_group_at_half_a_point_plays_at_half_a_point(
    page: Page, shot
):
    group = start_group(page, "Thursday teahouse")
    page.get_by_role("link", name="Settings").click()
    page.wait_for_url("**/settings/")
    widest(page)
    page.fill("#id_stake", "0.50")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.locator("#settings-saved")).to_be_visible()
    expect(page.locator("#settings-history li")).to_contain_text("A point's stake 1 → 0.50")
    shot(page, "group-settings")

    page.goto(group)
    expect(page.locator("#stake")).to_contain_text("0.50 a point")
    details = page.locator("#new-table")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.check("#group-table-form input[name=game][value=ce-deng]")
    line = page.locator("#new-table-plays-for [data-plays-for=ce-deng]")
    expect(line).to_be_visible()
    expect(line).to_have_text(re.compile(r"^0\.50 a point"))
    for i, name in enumerate(FOUR):
        page.fill(f"#id_player_{i}", name)
    page.check("#group-table-form input[name=first][value='0']")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))

    expect(page.locator("#stake")).to_contain_text("0.50 a point")
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    save_hand(page, 1)
    page.goto(group)  # +58, +18, -70, -6 at 1 a point: half of it
    cells = page.locator("table.balances tbody tr td[data-unit=money]")
    assert sorted(cells.all_inner_texts()) == sorted(["+29", "+9", "−35", "−3"])
