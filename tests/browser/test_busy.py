"""A busy server sheds the live poll with 503 and Retry-After (issue 21, item 9): the page
asks again only after that long, plus a random part so that a hall's phones do not all come
back at once, and then polls as before."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Route

from tests.browser.conftest import start_table

LIVE = re.compile(r"/t/[\w-]+/live/")


def test_the_page_waits_as_long_as_a_shed_poll_says_then_polls_again(new_context):
    # Requests the service worker fetches are not seen by a route: without it, they are.
    page = new_context(service_workers="block").new_page()
    start_table(page, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    polls: list[tuple[float, int]] = []  # (when, status) of each live poll answered
    page.on(
        "response",
        lambda r: polls.append((time.monotonic(), r.status)) if "/live/" in r.url else None,
    )

    def queued_long(route: Route) -> None:
        # As nginx stamps a request that then waited 2 s for a worker: the server sheds it.
        stamp = f"t={time.time() - 2:.3f}"
        route.continue_(headers={**route.request.headers, "x-request-start": stamp})
        page.unroute(LIVE, queued_long)  # only the first

    page.route(LIVE, queued_long)
    page.wait_for_timeout(20_000)  # the shed poll within 3 s, the next within 11.5 s of it

    assert polls and polls[0][1] == 503, polls
    shed_at = polls[0][0]
    later = [at for at, status in polls[1:] if status != 503]
    assert later, polls
    gap = later[0] - shed_at
    # Retry-After 5 s, up to half again, then the next tick of the 3 s poll.
    assert 5.0 <= gap <= 5 * 1.5 + 3 + 1, polls
    assert len(later) >= 2  # polling as before
