"""HEAD answers as GET does, on every page and download: same status, same headers, no body."""

from __future__ import annotations

import pytest

from ledger.events import services as event_services
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand


@pytest.fixture
def urls(db) -> list[str]:
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    t, s, e = table.token, table.read_token, event.read_token
    return [
        "/", "/new/", "/events/new/", "/manifest.webmanifest", "/sw.js", "/offline/",
        f"/t/{t}/", f"/t/{t}/qr.svg", f"/t/{t}/hands/1/", f"/t/{t}/history/", f"/t/{t}/summary/",
        f"/t/{t}/export/hands.csv", f"/s/{s}/", f"/s/{s}/export/totals.csv",
        f"/o/{event.token}/", f"/j/{event.register_token}/", f"/e/{e}/", f"/e/{e}/projector/",
        f"/e/{e}/standings.csv", f"/api/v1/sessions/{t}/", "/api/v1/games/", "/healthz",
    ]  # fmt: skip


def test_head_answers_as_get_does_everywhere(client, urls):
    for url in urls:
        got, head = client.get(url), client.head(url)
        assert (url, head.status_code) == (url, got.status_code)
        assert got.status_code == 200, url
        assert head["Content-Type"] == got["Content-Type"], url
        body = b"".join(head.streaming_content) if head.streaming else head.content
        assert body == b"", url
