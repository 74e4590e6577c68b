"""A hand another phone saved is seen (issue 21, item 4): marked for a moment among the latest
hands and read out politely, while what this phone is typing keeps its value and its focus.
This phone's own save is read out by its own panel, not announced again."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, save_hand, start_table


def test_a_hand_from_another_phone_is_marked_and_read_out_without_moving_the_typing(
    page: Page, new_context, shot
):
    table = start_table(page, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    other = new_context().new_page()
    other.goto(table)

    # This phone saves hand 1: its own panel says so, nothing else is announced.
    enter_hand(page, {0: 2, 1: 12, 2: 20})
    save_hand(page, 1)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#arrived")).to_have_text("")
    expect(page.locator("#hand-1")).not_to_have_class("arrived")

    # The other phone sees it arrive.
    expect(other.locator("#hand-1")).to_have_class("arrived", timeout=8000)
    expect(other.locator("#arrived")).to_have_text("Hand 1 saved on another phone.")

    # This phone is typing hand 2 when the other phone saves it.
    typing = page.locator("#pips-0")
    typing.fill("5")
    typing.focus()
    enter_hand(other, {0: 20, 1: 2, 2: 12})
    save_hand(other, 2)
    expect(page.locator("#hand-2")).to_have_class("arrived", timeout=8000)
    expect(page.locator("#arrived")).to_have_text("Hand 2 saved on another phone.")
    shot(page, "arrived")
    expect(typing).to_be_focused()
    expect(typing).to_have_value("5")
    # The mark is for a moment only; the hand stays.
    expect(page.locator("#hand-2")).not_to_have_class("arrived", timeout=8000)
    expect(page.locator("#hand-2")).to_be_visible()
