"""A phone that loses its connection keeps the hand and sends it, once, when it is back."""

from __future__ import annotations

from playwright.sync_api import expect

from ledger.models import Hand
from tests.browser.conftest import enter_hand, start_table

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
BACK = 15_000  # ms: the phone retries every 5 s and when the browser says it is online


def test_a_hand_saved_offline_is_kept_and_sent_once_when_the_connection_is_back(page, shot):
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})

    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#unsent")).to_contain_text("1 hand(s) kept on this phone")
    assert not Hand.objects.exists()
    shot(page, "kept-offline")
    # Pressing save again while offline keeps it once.
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand(s) kept on this phone")

    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    assert Hand.objects.count() == 1
    shot(page, "sent-when-back")
