"""A table's stream (/t/<token>/stream/, ledger/web/push.py) as ``make run`` serves it.

``manage.py serve`` on a throwaway SQLite folder: the pages and the streams on one port; a
save reaches every phone's stream within a second; a wrong link is a 404 like any table link.
A sync (WSGI) server answers a stream 503, and the page polls instead.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request

import pytest

from deploy.stack import Stream, embedded_stack
from ledger.tables import services


@pytest.fixture(scope="module")
def server():
    with embedded_stack() as running:
        yield running


def _api(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base}/api/v1/{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": secrets.token_hex(8)},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


def test_make_run_serves_the_pages_and_the_streams_on_one_port(server):
    seating = {"game": "jie-long", "seating": ["Anna", "Bob", "Celine"], "first": "Anna"}
    token = _api(server.base, "sessions/", seating)["token"]
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


def test_a_wrong_link_has_no_stream(server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.base}/t/{'A' * 22}/stream/", timeout=10)
    assert refused.value.code == 404


@pytest.mark.django_db
def test_a_sync_server_answers_a_stream_503_and_the_page_polls(client):
    table = services.session_create(
        game="jie-long", options={}, seating=["Anna", "Bob"], first="Anna"
    )
    response = client.get(f"/t/{table.token}/stream/")
    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert client.get(f"/t/{table.token}/live/?rev=0").status_code == 204
