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


# A phone whose share sheet takes files (Chrome on Android, Safari): what the page hands it is
# kept here, as the sheet would get it.
SHARES_FILES = """
Object.defineProperty(Navigator.prototype, "canShare", {
  configurable: true,
  value: function (data) { return !data.files || data.files.every((f) => f.type === "image/png"); },
});
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.sharedWith = data; return Promise.resolve(); },
});
"""


def test_the_recap_is_shared_as_a_picture_too_where_the_phone_can_share_one(page: Page, shot):
    page.context.add_init_script(SHARES_FILES)
    group = start_group(page, "Thursday teahouse")
    new_table(page, group, "jie-long", EVENING_1)
    enter_hand(page, {0: 2, 1: 12, 2: 20})  # Anna +28, Bob -2, Celine -26
    save_hand(page, 1)
    page.goto(f"{group}evening/")

    page.locator("#share-button").click()

    page.wait_for_function("() => window.sharedWith !== undefined")
    text = page.locator("#share-text").input_value()
    assert page.evaluate("window.sharedWith.text") == text and "Anna +28" in text
    picture = page.evaluate(
        """async () => {
            const [file] = window.sharedWith.files;
            const drawn = await createImageBitmap(file);
            return [file.name, file.type, drawn.width, drawn.height];
        }"""
    )
    lines = len(text.splitlines())
    assert picture[:3] == ["evening.png", "image/png", 720]
    assert picture[3] >= 64 + 40 * lines  # a line of the picture for every line of the text
