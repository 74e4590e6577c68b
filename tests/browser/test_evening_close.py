"""Close the evening (issue 47, item 8) on a 360×640 phone: the organiser is told what the
ledger found (a table still open), closes the evening, and shares its recap."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, save_hand, widest
from tests.browser.test_groups import EVENING_1, new_table, start_group


def test_the_organiser_closes_the_evening_and_shares_its_recap(page: Page, shot):
    group = start_group(page, "Thursday teahouse")
    table = new_table(page, group, "jie-long", EVENING_1)
    enter_hand(page, {0: 2, 1: 12, 2: 20})  # Anna +28, Bob -2, Celine -26
    save_hand(page, 1)

    page.goto(group)
    page.locator("#close-evening-link").click()
    page.wait_for_url("**/evening/")
    expect(page.locator("#findings li")).to_have_text([re.compile(r"is still open")])
    widest(page)
    page.get_by_role("button", name="Close the evening").click()
    expect(page.locator("#evening-closed")).to_be_visible()
    expect(page.locator("#evening-winner")).to_have_text("Won the evening: Anna +28")
    expect(page.locator("#recap .settle-up li")).to_have_text(
        ["Celine pays Anna 26", "Bob pays Anna 2"]
    )
    expect(page.locator("#share-button")).to_be_visible()
    expect(page.locator("#share-text")).to_contain_text("Anna +28", use_inner_text=False)
    shot(page, "evening-closed")
    page.goto(table)
    expect(page.locator("#record-form")).to_have_count(0)  # locked: no more hands
