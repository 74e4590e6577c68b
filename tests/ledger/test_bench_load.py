"""``manage.py bench_load`` refuses what it cannot run before it starts anything (the hall itself
is measured, not tested: docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import CommandError, call_command

from ledger.bench import load
from ledger.web import push


@pytest.mark.parametrize("halls", ["", "600,lots", "0,600", "-5"])
def test_halls_that_are_not_table_counts_are_refused(halls):
    with pytest.raises(CommandError, match="table counts of 1 or more"):
        call_command("bench_load", "--halls", halls)


def test_a_mode_that_is_not_streams_or_polling_is_refused():
    with pytest.raises(CommandError, match="--modes takes stream and poll, not 'stream,push'"):
        call_command("bench_load", "--modes", "stream,push")


@pytest.mark.parametrize("fault", [["--kill-stream-worker"], ["--restart-postgres", "true"]])
def test_a_fault_without_streams_is_refused(fault):
    with pytest.raises(CommandError, match="faults are done to a hall on streams"):
        call_command("bench_load", "--modes", "poll", *fault)


@pytest.mark.parametrize(
    ("answer", "again"),
    [
        (b"", True),  # no answer: the connection failed
        (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n\r\nBusy", True),
        (b"HTTP/1.1 502 Bad Gateway\r\n\r\n", True),
        (b"HTTP/1.1 429 Too Many Requests\r\n\r\n", True),
        (b'HTTP/1.1 200 OK\r\n\r\n<div id="saved">', False),
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", False),  # refused: sending it again changes nothing
        (b"HTTP/1.1 423 Locked\r\n\r\n", False),
    ],
)
def test_the_simulated_phones_send_a_hand_again_when_the_page_would(answer, again):
    assert load._retryable(answer) is again


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n\r\nBusy",  # as Django sends it
        b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 5\r\n\r\nBusy",  # uvicorn's, lower case
    ],
)
def test_the_simulated_phones_wait_as_long_as_a_shed_answer_asks(answer):
    assert 5 <= load._retry_after(answer) <= 7.5
    assert load._retry_after(answer.replace(b"503 Service Unavailable", b"200 OK")) == 0


def test_the_simulated_phones_read_a_stream_as_the_page_does():
    # The stream as uvicorn sends it: its events as the server writes them (ledger.web.push),
    # each in a chunk of its own, the live part's lines each a data line.
    html = '<section id="live" data-revision="7">\n  <h2>Totals</h2>\n\n  <ol></ol>\n</section>'
    events = ["retry: 2000\n\n", push.message(5), push.live_message(6, html), push.message(7)]
    sent = b"".join(b"%x\r\n%s\r\n" % (len(e.encode()), e.encode()) for e in events) + b"0\r\n\r\n"

    async def read() -> list[tuple[bytes, int]]:
        reader = asyncio.StreamReader()
        reader.feed_data(sent)
        reader.feed_eof()
        return [event async for event in load._events(reader)]

    # On a thread of its own: a browser test before this one in the process leaves its event
    # loop in this thread.
    with ThreadPoolExecutor(1) as thread:
        events = thread.submit(asyncio.run, read()).result(timeout=10)
    # the retry; a revision; a live part, by the revision it shows; a revision
    assert events == [
        (b"retry", 2000),
        (b"revision", 5),
        (b"live", 7),
        (b"revision", 7),
    ]
