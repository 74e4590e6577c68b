"""A page whose stream is refused past a cap (issue 13, item 10: here its address's,
``STREAMS_PER_ADDRESS``, 429 with Retry-After) polls instead, and does not ask for the stream
again and again: a browser does not open again a stream refused with a status, and ledger.js
polls then, trying a stream again only a minute or so later. Served as ``make run`` serves it
(``manage.py serve``: pages and streams on one port, on a throwaway SQLite folder), or in the
PostgreSQL pass by an ASGI server of the production stack on a throwaway database."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import enter_hand, paced, save_hand, start_table
from tests.browser.test_push import with_streams

# On PostgreSQL, against the production stack's ASGI server, as every browser test; make run's
# own server is tried in a browser by test_push.py's first test.


@pytest.fixture(scope="module")
def server():
    """The server, with room for one stream from an address: every phone here is 127.0.0.1."""
    with with_streams(STREAMS_PER_ADDRESS="1") as up:
        yield up


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args, server) -> dict:
    """Phones on that server: ``page.goto("/new/")`` opens it there."""
    return {**browser_context_args, "base_url": server.base}


def test_a_page_refused_a_stream_past_a_cap_polls_and_does_not_ask_again_and_again(
    new_context, shot
):
    anna = new_context().new_page()
    table = start_table(anna, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    expect(anna.locator("html")).to_have_attribute("data-live", "stream")  # the address's one
    # Requests the service worker fetches are not seen by the page: without it, they are.
    bob = new_context(service_workers="block").new_page()
    asked: list[str] = []
    answered: list[int] = []
    bob.on("request", lambda request: "/stream/" in request.url and asked.append(request.url))
    bob.on(
        "response", lambda response: "/stream/" in response.url and answered.append(response.status)
    )

    bob.goto(table)

    expect(bob.locator("html")).to_have_attribute("data-live", "poll")
    shot(bob, "polling")
    enter_hand(anna, {0: 2, 1: 12, 2: 20})
    save_hand(anna, 1)
    expect(bob.locator("#hand-1")).to_be_visible(timeout=5_000)  # the next poll
    bob.wait_for_timeout(4 * paced(2_000))  # a browser that opened it again would have, every 2 s
    assert answered == [429]
    assert len(asked) == 1, asked
    expect(bob.locator("html")).to_have_attribute("data-live", "poll")
