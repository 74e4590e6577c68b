"""The group moves on together (issue 37, item 6): a phone still showing the group's last table
sees "The group started a new table →" within a couple of seconds of another phone playing
again, on a phone that opened the group's link; a phone that opened only the table's link is
told nothing of its group. Served as tests/browser/test_push.py serves its phones: the tests'
sync live server has no streams.
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


def test_a_phone_on_the_groups_last_table_is_told_of_the_new_one(server, new_context, shot):
    group, table, _ = a_group(server)
    phone = new_context().new_page()
    phone.goto(f"/g/{group}/")
    phone.goto(f"/t/{table}/")
    expect(phone.locator("html")).to_have_attribute("data-live", "stream")
    expect(phone.locator("#moved-on")).to_be_hidden()
    stranger = new_context().new_page()  # the table's link only: nothing of its group
    stranger.goto(f"/t/{table}/")
    expect(stranger.locator("#record-form")).to_be_visible()
    assert stranger.locator("#moved-on, [data-group-stream]").count() == 0

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
    assert stranger.locator("#moved-on").count() == 0


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
