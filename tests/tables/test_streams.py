"""A table's stream (/t/<token>/stream/, ledger/web/push.py) as ``make run`` serves it.

``manage.py serve`` on a throwaway SQLite folder: the pages and the streams on one port; a
save reaches every phone's stream within a second; a wrong link is a 404 and counts toward
the guess limit like any table link's. A sync (WSGI) server answers a stream 503, and the
page polls instead.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from deploy.stack import Stream
from ledger.tables import services
from ledger.web import push
from tests.live import embedded

GUESS_LIMIT = 5


@pytest.fixture(scope="module")
def server():
    with embedded(GUESS_LIMIT) as running:
        yield running


def _api(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base}/api/v1/{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": secrets.token_hex(8)},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


@pytest.fixture
def table(server) -> str:
    seating = {"game": "jie-long", "seating": ["Anna", "Bob", "Celine"], "first": "Anna"}
    return str(_api(server.base, "sessions/", seating)["token"])


def test_make_run_serves_the_pages_and_the_streams_on_one_port(server, table):
    token = table
    with urllib.request.urlopen(f"{server.base}/t/{token}/", timeout=10) as page:
        assert f'data-stream="/t/{token}/stream/?rev=0"' in page.read().decode()
    phones = [Stream(f"{server.base}/t/{token}/stream/") for _ in range(3)]
    try:
        for phone in phones:
            assert phone.next(timeout=5)[1] == 0
        results = {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 30}}
        hand = {"first": "Anna", "direction": "ccw", "results": results}
        _api(server.base, f"sessions/{token}/hands/", {"number": 1, "hand": hand})
        saved = time.monotonic()
        for phone in phones:
            came, revision = phone.next(timeout=5)
            assert revision == 1
            assert came - saved < 1.0, f"{came - saved:.2f} s after the save"
    finally:
        for phone in phones:
            phone.close()


@pytest.mark.both_databases  # the hub: PostgreSQL's LISTEN, or its reads on SQLite
@pytest.mark.django_db(transaction=True)  # the live part is looked for on another thread
def test_a_live_part_that_cannot_be_had_is_sent_as_its_revision_and_the_page_fetches_it(caplog):
    async def sent() -> list[str]:
        # The render's thread is the loop's one: its connection to the test database is
        # closed at the end, else the database could not be dropped after the tests.
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1))
        carried = push.Carried("no-such-table", "en", shown=0)
        stream = push.events(("table", 0), 0, carried=carried)
        events = [await anext(stream), await anext(stream)]  # how soon to retry; revision 0
        push.hub().publish([(0, 1)])
        events.append(await anext(stream))
        await stream.aclose()
        await loop.run_in_executor(None, connections.close_all)
        return events

    # On a thread of its own: a browser test before this one in the process leaves its event
    # loop in this thread.
    with ThreadPoolExecutor(1) as thread:
        events = thread.submit(asyncio.run, sent()).result(timeout=10)
    assert events[1:] == [push.message(0), push.message(1)]
    assert "Rendering the live part of a table failed: sent its revision" in caplog.text


@pytest.mark.django_db
def test_a_sync_server_answers_a_stream_503_and_the_page_polls(client):
    table = services.session_create(
        game="jie-long", options={}, seating=["Anna", "Bob"], first="Anna"
    )
    response = client.get(f"/t/{table.token}/stream/")
    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert client.get(f"/t/{table.token}/live/?rev=0").status_code == 204


def _save(base: str, token: str, number: int) -> float:
    results = {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 20 + number}}
    hand = {"first": "Anna", "direction": "ccw", "results": results}
    _api(base, f"sessions/{token}/hands/", {"number": number, "hand": hand})
    return time.monotonic()


def _sent(phone: Stream) -> tuple[str, int]:
    event = phone.next_event(timeout=5)
    return event.kind, event.revision


def test_a_table_page_s_stream_carries_the_live_part_in_the_page_s_language(server, table):
    """The page says which revision it shows (?rev=): a save sends every phone the live part
    itself, in its own language, and no phone fetches it."""
    url = f"{server.base}/t/{table}/stream/?rev=0"
    with (
        Stream(url) as english,
        Stream(url, headers={"Accept-Language": "zh-Hans"}) as chinese,
        Stream(f"{server.base}/t/{table}/stream/") as old_page,  # from before, without ?rev=
    ):
        for phone in (english, chinese, old_page):
            assert phone.next_event(timeout=5).kind == "revision"  # it shows revision 0
        saved = _save(server.base, table, 1)
        for phone, totals in ((english, "Totals"), (chinese, "合计")):
            event = phone.next_event(timeout=5)
            assert event.came - saved < 1.0, f"{event.came - saved:.2f} s after the save"
            assert (event.kind, event.revision) == ("live", 1)
            assert event.data.startswith('<section id="live"') and 'data-revision="1"' in event.data
            assert 'id="hand-1"' in event.data and f"<h2>{totals}</h2>" in event.data
        assert _sent(old_page) == ("revision", 1)  # it fetches the part


def test_a_page_behind_is_sent_the_live_part_when_its_stream_opens(server, table):
    """Opened, or opened again by its browser with the last revision it was sent
    (Last-Event-ID, which outranks ?rev=), a stream sends the live part only to a page that
    does not show the table's revision."""
    _save(server.base, table, 1)
    with Stream(f"{server.base}/t/{table}/stream/?rev=0") as behind:
        event = behind.next_event(timeout=5)
        assert (event.kind, event.revision) == ("live", 1) and 'id="hand-1"' in event.data
    with Stream(f"{server.base}/t/{table}/stream/?rev=0", last_event_id="1") as again:
        assert _sent(again) == ("revision", 1)
    with Stream(f"{server.base}/t/{table}/stream/?rev=1", last_event_id="0") as again:
        assert _sent(again) == ("live", 1)
    with Stream(f"{server.base}/t/{table}/stream/?rev=x%C2%B2") as wrong:  # not a revision
        assert _sent(wrong) == ("live", 1)


def test_a_stream_answers_head_and_refuses_other_methods(server, table):
    head = urllib.request.Request(f"{server.base}/t/{table}/stream/", method="HEAD")
    with urllib.request.urlopen(head, timeout=10) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        assert response.read() == b""
    post = urllib.request.Request(f"{server.base}/t/{table}/stream/", data=b"", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(post, timeout=10)
    assert refused.value.code == 405
    assert refused.value.headers["Allow"] == "GET, HEAD"


def test_past_capacity_a_stream_that_waited_too_long_is_refused_with_retry_after(server, table):
    """A stream opened (or opened again) past capacity can wait: as a poll, it is shed."""
    url = f"{server.base}/t/{table}/stream/"
    late = urllib.request.Request(url, headers={"X-Request-Start": f"t={time.time() - 2:.3f}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(late, timeout=10)
    assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "5"
    with Stream(url) as phone:  # not stamped by a proxy: nothing to shed by
        assert phone.next(timeout=5)[1] == 0


def test_wrong_stream_links_count_as_guesses_as_a_page_s_do(server, table):
    """Last in this file: it leaves this address over the guess limit."""
    codes = []
    for _ in range(GUESS_LIMIT + 1):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.base}/t/{secrets.token_urlsafe(16)}/stream/")
        codes.append(refused.value.code)
    assert codes == [404] * GUESS_LIMIT + [429]
    assert refused.value.headers["Retry-After"]
    # Over the limit, a right link answers 429 too, as a page does: a hit cannot be told apart.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.base}/t/{table}/stream/", timeout=10)
    assert refused.value.code == 429
    assert b"Too many wrong table links" in refused.value.read()
