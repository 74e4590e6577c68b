"""A lone table plays again from its summary (issue 37, item 9) on a 360×640 phone: one tap,
and the phone is at a new table with the same players in the same seats."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, save_hand, start_table

PLAYERS = ["Anna", "Bob", "Celine"]


def test_play_again_from_a_lone_table_s_summary_lands_on_a_new_table(page: Page, shot):
    first = start_table(page, "jie-long", PLAYERS, leader=1)
    enter_hand(page, {0: 2, 1: 12, 2: 20})
    save_hand(page, 1)
    page.goto(f"{first}summary/")
    button = page.locator("#play-again").get_by_role("button", name="Play again", exact=True)
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 360
    shot(page, "summary")

    button.tap()

    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    assert urlsplit(page.url).path != first
    for seat, name in enumerate(PLAYERS):
        expect(page.locator(f"#player-{seat}")).to_contain_text(name)
    expect(page.locator("#hands")).to_contain_text("No hands yet.")
    expect(page.locator("#live")).to_contain_text("Next: Bob leads")  # as at the first table
    shot(page, "new-table")
