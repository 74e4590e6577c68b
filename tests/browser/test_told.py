"""Changes are told (issue 47, item 7): a correction of an earlier hand shows on the other phones
of the table and the group, by push, saying who changed it, which hand and how the totals moved;
once: not again when the page is opened again, and not on the phone that made it. Served as
tests/browser/test_push.py serves its phones: the tests' sync live server has no streams."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser import test_push
from tests.live import a_group, save

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it


def test_a_correction_is_told_once_on_the_other_phones_of_the_table_and_the_group(
    server, new_context, shot
):
    group, table, seating = a_group(server)
    save(server.base, table, seating, 1)
    at_table, at_group, fixing = (new_context().new_page() for _ in range(3))
    for page, url in ((at_table, f"/t/{table}/"), (at_group, f"/g/{group}/")):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("data-live", "stream")
        expect(page.locator("#told")).to_have_count(0)

    fixing.goto(f"/t/{table}/hands/1/")
    fixing.fill("#pips-0", "30")
    fixing.get_by_role("button", name="Save correction").click()
    expect(fixing.locator("#changed")).to_contain_text("Hand 1 corrected.")

    for page in (at_table, at_group):
        notice = page.locator("#told")
        expect(notice).to_be_visible(timeout=5_000)
        expect(notice).to_contain_text("corrected hand 1")
        expect(notice).to_contain_text(f"{seating[0]} ")
        expect(notice).to_contain_text("→")
    shot(at_table, "told")
    expect(fixing.locator("#told")).to_be_hidden()  # its own: it says so itself
    at_table.reload()
    expect(at_table.locator("#told")).to_be_hidden()  # told once
