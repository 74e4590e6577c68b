"""Slow clients: ``make run``'s server (``manage.py serve``: gunicorn with uvicorn's workers, and
no nginx in front) keeps answering pages and /healthz while 50 connections trickle their
requests in a byte at a time, headers or body. The sync workers of deploy/gunicorn.conf.py do
not: each is held by one such connection for as long as it trickles, so four held both and
/healthz waited 30 s; that is why they only ever run behind nginx, which takes a request whole
before it passes it on (docs/operations.md). Real servers, real sockets.
"""

from __future__ import annotations

import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest

from deploy.stack import embedded_stack, production_stack
from tests.faults.conftest import SERVER, postgres

SLOW = 50
PROMPT = 2.0  # seconds: what a page or /healthz may take while the slow connections trickle


def _requests(host: str) -> Iterator[bytes]:
    """What the slow connections send, in turn: headers that never end, and a body sent a byte
    at a time after whole headers."""
    while True:
        yield f"GET / HTTP/1.1\r\nHost: {host}\r\nX-Slow: {'x' * 4000}\r\n\r\n".encode()
        yield (
            f"POST /api/v1/score HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 4000\r\n\r\n{' ' * 4000}"
        ).encode()


@contextmanager
def trickling(base: str, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections to ``base``, each sending its request a byte every tenth of a
    second (on one thread), for as long as the block runs."""
    url = urllib.parse.urlsplit(base)
    assert url.hostname is not None and url.port is not None
    requests = _requests(url.hostname)
    slow = [
        (socket.create_connection((url.hostname, url.port), timeout=5), next(requests))
        for _ in range(count)
    ]
    stop = threading.Event()

    def trickle() -> None:
        sent = 0
        while not stop.wait(0.1):
            for connection, request in slow:
                if sent < len(request):
                    with suppress(OSError):  # a connection the server closed: still_open says
                        connection.send(request[sent : sent + 1])
            sent += 1

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        yield [connection for connection, _ in slow]
    finally:
        stop.set()
        thread.join()
        for connection, _ in slow:
            connection.close()


def still_open(connection: socket.socket) -> bool:
    """The server has neither answered nor closed the connection: it is still being held."""
    connection.setblocking(False)
    try:
        return not connection.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False


def answered_in(url: str, timeout: float) -> float | None:
    """Seconds ``url`` took to answer 200, or None if it did not within ``timeout``."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            assert response.status == 200
    except TimeoutError:
        return None
    return time.monotonic() - began


def test_make_run_s_server_keeps_answering_while_50_slow_connections_trickle():
    with embedded_stack() as stack, trickling(stack.base, SLOW) as slow:
        time.sleep(1)  # every connection taken and a few bytes in
        took = [answered_in(stack.base + path, PROMPT) for path in ("/healthz", "/") * 3]
        assert None not in took, took
        held = sum(still_open(connection) for connection in slow)
    assert held == SLOW  # none of them was answered or dropped meanwhile: all were being held


@pytest.mark.own_postgresql  # the production stack, on a PostgreSQL database of its own
def test_the_sync_workers_are_held_by_slow_clients_which_is_why_nginx_stands_in_front():
    """What the test above would find without uvicorn's workers: gunicorn's sync workers,
    started as deploy/gunicorn.conf.py starts them (two here), each held by a slow connection."""
    postgres()
    with production_stack(SERVER, workers=2) as stack:
        assert answered_in(stack.base + "/healthz", PROMPT) is not None
        with trickling(stack.base, 4):
            time.sleep(1)
            assert answered_in(stack.base + "/healthz", PROMPT) is None
        # The slow connections gone, the workers answer again.
        assert answered_in(stack.base + "/healthz", 10) is not None
