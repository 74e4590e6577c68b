"""A busy server sheds the live poll with 503 and Retry-After (issue 21, item 9): the page
asks again only after that long, plus a random part so that a hall's phones do not all come
back at once, and then polls as before."""

from __future__ import annotations

import math
import re
import time

from playwright.sync_api import Route

from tests.browser.conftest import paced, start_table

LIVE = re.compile(r"/t/[\w-]+/live/")


def test_the_page_waits_as_long_as_a_shed_poll_says_then_polls_again(new_context):
    # Requests the service worker fetches are not seen by a route: without it, they are.
    page = new_context(service_workers="block").new_page()
    start_table(page, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    polls: list[tuple[float, int, str | None]] = []  # (when, status, Retry-After) of each
    page.on(
        "response",
        lambda r: (
            polls.append((time.monotonic(), r.status, r.headers.get("retry-after")))
            if "/live/" in r.url
            else None
        ),
    )

    def queued_long(route: Route) -> None:
        # As nginx stamps a request that then waited 2 s for a worker: the server sheds it.
        stamp = f"t={time.time() - 2:.3f}"
        route.continue_(headers={**route.request.headers, "x-request-start": stamp})
        page.unroute(LIVE, queued_long)  # only the first

    page.route(LIVE, queued_long)
    # The shed poll within a poll's wait, the next within Retry-After and half again of it,
    # then the next tick of the poll (3 s, and Retry-After 5 s, at the browser tests' pace).
    every, retry_after = paced(3), math.ceil(paced(5))
    page.wait_for_timeout((every + retry_after * 1.5 + every + 2) * 1000)

    assert polls and polls[0][1] == 503, polls
    assert polls[0][2] == str(retry_after), polls
    shed_at = polls[0][0]
    later = [at for at, status, _ in polls[1:] if status != 503]
    assert later, polls
    gap = later[0] - shed_at
    assert retry_after <= gap <= retry_after * 1.5 + every + 1, polls
    assert len(later) >= 2  # polling as before
