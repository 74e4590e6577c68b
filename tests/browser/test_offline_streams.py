"""A table followed on its stream all evening reopens with no connection as this phone last saw
it, not as it was first opened, and says how old it is (issue 45, item 14). Served as
tests/browser/test_push.py serves its phones: the tests' sync live server has no streams, and
its pages poll."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import test_push
from tests.browser.conftest import start_table
from tests.browser.test_offline import _until, kept
from tests.live import save

# On PostgreSQL, against the production stack's ASGI server, as every browser test; make run's
# own server is tried in a browser by test_push.py's first test.

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it

SEATING = ["Anna", "Bob", "Celine"]


def test_a_table_followed_on_its_stream_reopens_offline_as_last_seen_saying_when(
    server, new_context, shot
):
    page = new_context(locale="en-GB").new_page()
    path = start_table(page, "jie-long", SEATING, leader=0)
    page.evaluate("navigator.serviceWorker.ready")
    _until(page, "navigator.serviceWorker.controller && caches.match(location.pathname)")
    expect(page.locator("html")).to_have_attribute("data-live", "stream")

    for number in (1, 2, 3):  # saved on other phones; this one sees them on its stream
        save(server.base, path.split("/")[2], SEATING, number)
        expect(page.locator(f"#hand-{number}")).to_be_visible()
    expect(page.locator("#hand-number")).to_have_text("Hand 4")
    totals = page.locator("#scoreboard").inner_text()
    page.goto("/")  # put away: its copy is fetched again, once, not at every hand
    _until(page, f'{kept(path)}.then((html) => html.includes(\'name="number" value="4"\'))')

    page.context.set_offline(True)
    page.goto(path)

    expect(page.locator("#hand-number")).to_have_text("Hand 4")
    assert page.locator("#scoreboard").inner_text() == totals
    expect(page.locator("#kept-at")).to_have_text(
        re.compile(r"^No connection: this is the page as of \d\d:\d\d\.$")  # en-GB: 24 hours
    )
    shot(page, "reopened-offline")
