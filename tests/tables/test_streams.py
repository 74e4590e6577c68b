"""A table's stream (/t/<token>/stream/, ledger/web/push.py) as ``make run`` serves it.

``manage.py serve`` on a throwaway SQLite folder: the pages and the streams on one port; a
save reaches every phone's stream within a second; a wrong link is a 404 and counts toward
the guess limit like any table link's. A sync (WSGI) server answers a stream 503, and the
page polls instead.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request

import pytest

from deploy.stack import Stream
from ledger.tables import services
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
        assert f'data-stream="/t/{token}/stream/"' in page.read().decode()
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


@pytest.mark.django_db
def test_a_sync_server_answers_a_stream_503_and_the_page_polls(client):
    table = services.session_create(
        game="jie-long", options={}, seating=["Anna", "Bob"], first="Anna"
    )
    response = client.get(f"/t/{table.token}/stream/")
    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert client.get(f"/t/{table.token}/live/?rev=0").status_code == 204


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
