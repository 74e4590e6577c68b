"""Streams are bounded (ledger/web/push.py): a server process holds at most
``STREAMS_PER_PROCESS`` of them, and one client address at most ``STREAMS_PER_ADDRESS`` there;
past either the next is refused (503 for the process, 429 for the address) with Retry-After,
and its page polls instead (tests/browser/test_stream_caps.py). Served as ``make run`` serves
them, behind a trusted proxy (nginx's address, 127.0.0.1) so that each phone has its own address,
sent as X-Forwarded-For."""

from __future__ import annotations

import json
import logging
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from django.test import RequestFactory

from deploy.stack import Stream
from ledger.web import push
from tests.live import embedded

PER_ADDRESS, PER_PROCESS = 2, 3
HALL, ELSEWHERE, LATE = "203.0.113.7", "198.51.100.4", "192.0.2.9"  # three phones' addresses


@pytest.fixture(scope="module")
def server():
    settings = {"STREAMS_PER_ADDRESS": str(PER_ADDRESS), "STREAMS_PER_PROCESS": str(PER_PROCESS)}
    with embedded(100, TRUSTED_PROXIES="127.0.0.1", **settings) as running:
        yield running


@pytest.fixture
def stream(server) -> str:
    """A table's stream."""
    body = {"game": "jie-long", "seating": ["Anna", "Bob", "Celine"], "first": "Anna"}
    request = urllib.request.Request(
        f"{server.base}/api/v1/sessions/",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return f"{server.base}/t/{json.load(response)['token']}/stream/"


@pytest.fixture
def phones() -> Iterator[ExitStack]:
    with ExitStack() as held:
        yield held


def held_from(address: str, url: str) -> Stream:
    stream = Stream(url, headers={"X-Forwarded-For": address})
    assert stream.next(timeout=5)[1] == 0
    return stream


def refused_from(address: str, url: str, method: str = "GET") -> tuple[int, str, str]:
    """The status, Retry-After and body of a stream refused to ``address``."""
    request = urllib.request.Request(url, headers={"X-Forwarded-For": address}, method=method)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    error = refused.value
    return error.code, error.headers["Retry-After"], error.read().decode()


def test_past_its_cap_an_address_is_refused_429_and_past_the_process_s_everyone_503(stream, phones):
    for _ in range(PER_ADDRESS):
        phones.enter_context(held_from(HALL, stream))

    over = refused_from(HALL, stream)
    phones.enter_context(held_from(ELSEWHERE, stream))  # the process's third: its last
    full = refused_from(LATE, stream)

    assert over == (
        429,
        "60",
        "Too many live pages are open from here: this page checks for changes every few "
        "seconds instead.",
    )
    assert full[:2] == (503, "60")
    assert full[2].startswith("This server follows as many live pages as it can")


def test_a_refusal_is_in_the_phone_s_language(stream, phones):
    for _ in range(PER_ADDRESS):
        phones.enter_context(held_from(HALL, stream))
    request = urllib.request.Request(
        stream, headers={"X-Forwarded-For": HALL, "Accept-Language": "zh-Hans"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 429
    assert "实时页面" in refused.value.read().decode()


def test_a_stream_that_ends_gives_its_place_back(stream, phones):
    first = held_from(HALL, stream)
    phones.enter_context(held_from(HALL, stream))
    assert refused_from(HALL, stream)[0] == 429

    first.close()

    deadline = time.monotonic() + 5
    while True:  # the server hears the phone go, then gives its place back
        try:
            phones.enter_context(held_from(HALL, stream))
            break
        except OSError:
            assert time.monotonic() < deadline, "the closed stream's place was not given back"
            time.sleep(0.1)


def test_streams_refused_or_never_held_leave_no_place_taken(server, stream, phones):
    wrong = f"{server.base}/t/{secrets.token_urlsafe(16)}/stream/"
    for _ in range(PER_PROCESS + 1):
        assert refused_from(HALL, wrong)[0] == 404  # no such table
        head = urllib.request.Request(stream, headers={"X-Forwarded-For": HALL}, method="HEAD")
        urllib.request.urlopen(head, timeout=10).close()  # answered, and over at once
    for _ in range(PER_ADDRESS):
        phones.enter_context(held_from(HALL, stream))
    for _ in range(PER_PROCESS):
        assert refused_from(HALL, stream)[0] == 429  # refused: took no place either

    phones.enter_context(held_from(ELSEWHERE, stream))


def test_refusals_are_counted_in_the_log_not_logged_one_by_one(settings, caplog):
    """A hall over its cap asks again and again: one line at the first refusal, then at most
    one a minute saying how many (as shed polls are: ledger/web/shedding.py)."""
    settings.STREAMS_PER_ADDRESS = 1
    held = push.Held()  # as a process that holds no stream yet
    request = RequestFactory().get("/t/x/stream/")
    assert held.take(request, HALL) is None

    with caplog.at_level(logging.INFO):
        refusals = [held.take(request, HALL) for _ in range(3)]

    assert [refusal.status_code for refusal in refusals if refusal] == [429] * 3
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            "Past capacity: 1 streams refused past a cap (503, or 429 for an address) since the "
            "last line like this one",
        )
    ]
    held.give_back(HALL)
    assert held.take(request, HALL) is None and held.of == {HALL: 1}
