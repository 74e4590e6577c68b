"""The group moves on together (issue 37, item 6): a phone still showing the group's last table
sees "The group started a new table →" within a couple of seconds of another phone playing
again. A phone that opened only the table's link, from its QR code, belongs to the group by it
(issue 47, item 1): it is told too, and its home page lists the group; a read-only link is told
nothing of its group. Served as tests/browser/test_push.py serves its phones: the tests' sync
live server has no streams.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.browser import test_push
from tests.live import a_group, save

# On PostgreSQL, against the production stack's ASGI server, as every browser test; make run's
# own server is tried in a browser by test_push.py's first test.

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it

SOON = 2.0  # seconds: a table started to the notice on the old table's page


def test_a_phone_that_joined_by_the_tables_qr_code_follows_the_group(server, new_context, shot):
    group, table, _ = a_group(server)
    phone = new_context().new_page()
    phone.goto(f"/t/{table}/")  # the table's QR code scanned: no link of the group's
    expect(phone.locator("html")).to_have_attribute("data-live", "stream")
    expect(phone.locator("#moved-on")).to_be_hidden()
    expect(phone.locator("#group-line a")).to_have_attribute("href", f"/g/{group}/")
    expect(phone.locator("#group-join-link")).to_have_text(f"{server.base}/g/{group}/")
    reader = new_context().new_page()  # the read-only link: nothing of its group
    reader.goto(phone.locator("#read-link").get_attribute("href") or "")
    assert reader.locator("#moved-on, [data-group-stream], #group-line").count() == 0

    other = new_context().new_page()
    other.goto(f"/g/{group}/")
    other.locator("#play-again button[value=same]").click()
    other.wait_for_url("**/t/*/")
    started = time.monotonic()
    new_table = other.url.removeprefix(server.base)
    assert new_table != f"/t/{table}/"

    notice = phone.locator("#moved-on a")
    expect(notice).to_have_text("The group started a new table →", timeout=10_000)
    assert time.monotonic() - started < SOON
    expect(notice).to_have_attribute("href", new_table)
    shot(phone, "moved-on")
    notice.click()
    phone.wait_for_url(f"**{new_table}")
    expect(phone.locator("#record-form")).to_be_visible()
    # A week later, no link at hand: the home page lists the group, a tap away.
    phone.goto("/")
    listed = phone.locator(f"#your-tables-list a[href='/g/{group}/']")
    expect(listed).to_have_count(1)
    listed.click()
    phone.wait_for_url(f"**/g/{group}/")


def test_the_groups_share_stays_offered_when_its_balances_are_fetched_again(server, new_context):
    """Share (item 10) is in the balances, which a save at one of the group's tables brings
    again: the button shows there too (ledger.js shows it, the page without scripts does not)."""
    group, table, seating = a_group(server)
    page = new_context().new_page()
    page.goto(f"/g/{group}/")
    expect(page.locator("html")).to_have_attribute("data-live", "stream")
    expect(page.locator("#share-button")).to_be_visible()
    before = page.locator("#balances").inner_html()
    save(server.base, table, seating, 1)
    page.wait_for_function(
        "before => document.querySelector('#balances').innerHTML !== before", arg=before
    )
    expect(page.locator("#share-button")).to_be_visible()
    expect(page.locator("#share-text")).to_contain_text("1 hand", use_inner_text=False)
