"""An event's and a group's streams (/e/<read token>/stream/, /g/<token>/stream/,
ledger/web/push.py) as ``make run`` serves them (``manage.py serve`` on a throwaway SQLite
folder): a save at one of the event's or group's tables reaches every page holding its stream
within a second, and only those; a wrong link of any kind (a table's too) is a 404, as a wrong
link to the page is, and counts toward the guess limit. Their
pages follow them: tests/browser/test_live_pages.py."""

from __future__ import annotations

import queue
import secrets
import urllib.error
import urllib.request

import pytest

from deploy.stack import Stream
from tests.live import a_group, an_event, embedded, save

GUESS_LIMIT = 5


@pytest.fixture(scope="module")
def server():
    with embedded(GUESS_LIMIT) as running:
        yield running


def test_a_save_at_an_events_table_reaches_its_pages_streams_within_a_second(server):
    read, _, table, seating = an_event(server)
    pages = [Stream(f"{server.base}/e/{read}/stream/") for _ in range(3)]
    try:
        for page in pages:
            page.next(timeout=5)
        for number in (1, 2):
            saved = save(server.base, table, seating, number)
            for page in pages:
                came, _ = page.next(timeout=5)
                assert came - saved < 1.0, f"{came - saved:.2f} s after the save"
    finally:
        for page in pages:
            page.close()


def test_a_save_at_a_groups_table_reaches_its_page_stream_and_not_another_groups(server):
    group, table, seating = a_group(server)
    other, _, _ = a_group(server)
    page, elsewhere = (
        Stream(f"{server.base}/g/{group}/stream/"),
        Stream(f"{server.base}/g/{other}/stream/"),
    )
    with page, elsewhere:
        first = page.next(timeout=5)[1]
        elsewhere.next(timeout=5)
        saved = save(server.base, table, seating, 1)
        came, number = page.next(timeout=5)
        assert came - saved < 1.0, f"{came - saved:.2f} s after the save"
        assert number > first
        with pytest.raises(queue.Empty):
            elsewhere.next(timeout=1.5)


def test_an_events_and_a_groups_stream_answer_head_and_refuse_other_methods(server):
    read, _, _, _ = an_event(server)
    group, _, _ = a_group(server)
    for path in (f"/e/{read}/stream/", f"/g/{group}/stream/"):
        head = urllib.request.Request(server.base + path, method="HEAD")
        with urllib.request.urlopen(head, timeout=10) as response:
            assert response.headers["Content-Type"] == "text/event-stream"
        post = urllib.request.Request(server.base + path, data=b"", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(post, timeout=10)
        assert refused.value.code == 405


def test_wrong_stream_links_of_every_kind_count_as_guesses_as_a_page_s_do(server):
    """Last in this file: it leaves this address over the guess limit."""
    read, _, table, _ = an_event(server)
    group, _, _ = a_group(server)
    codes, bodies = [], set()
    for kind in "teg" * GUESS_LIMIT:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.base}/{kind}/{secrets.token_urlsafe(16)}/stream/")
        codes.append(refused.value.code)
        bodies.add(refused.value.read())
    assert codes == [404] * GUESS_LIMIT + [429] * 2 * GUESS_LIMIT
    assert {b"No such table", b"No such event", b"No such group"} <= bodies
    # Over the limit, a right link answers 429 too, as a page does: a hit cannot be told apart.
    for path in (f"/t/{table}/stream/", f"/e/{read}/stream/", f"/g/{group}/stream/"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.base}{path}", timeout=10)
        assert refused.value.code == 429
        assert 0 < int(refused.value.headers["Retry-After"]) <= 600
