"""Phones on streams (issue 21): each sees the other's saves within a second; a phone whose
stream is cut catches up when it is back; a page whose stream is blocked falls back to polling
by itself. Served as ``make run`` serves it (``manage.py serve``: pages and streams on one
port, on a throwaway SQLite folder), or in the PostgreSQL pass by an ASGI server on a
throwaway database; not by the tests' sync live server, which has no streams.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, expect

from deploy.stack import Stack, embedded_stack, production_stack
from tests.browser.conftest import PACED, enter_hand, save_hand, start_table

# On PostgreSQL, against the production stack's ASGI server, as every browser test; the first
# test also on SQLite, against make run's own server (both_databases).


@contextmanager
def with_streams(**settings: str) -> Iterator[Stack]:
    """``make run``'s server on SQLite; in the PostgreSQL pass, an ASGI server of the production
    stack (pages and streams; its changes heard by LISTEN/NOTIFY); ``settings`` besides the
    browser tests' paced waits, in its environment."""
    postgres = os.environ.get("DATABASE_URL")
    settings = {**PACED, **settings}
    stack = (
        production_stack(postgres, workers=1, streams=1, settings=settings)
        if postgres
        else embedded_stack(settings=settings)
    )
    with stack as up:
        yield Stack(up.streams[0], up.database_url, up.env, up.streams, up.processes[-1:])


@pytest.fixture(scope="module")
def server():
    """The server with streams."""
    with with_streams() as up:
        yield up


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args, server) -> dict:
    """Phones on that server: ``page.goto("/new/")`` opens it there."""
    return {**browser_context_args, "base_url": server.base}


def seen_after(phone: Page, number: int) -> float:
    """Seconds until ``phone`` shows hand ``number`` among its latest hands; then waits for
    its form to move on to the next hand, as a player would before typing it."""
    started = time.monotonic()
    expect(phone.locator(f"#hand-{number}")).to_be_visible(timeout=10_000)
    seen = time.monotonic() - started
    expect(phone.locator("#record-form input[name=number]")).to_have_value(str(number + 1))
    return seen


@pytest.mark.both_databases
def test_two_phones_on_streams_see_each_others_saves_within_a_second(server, new_context, shot):
    anna = new_context().new_page()
    table = start_table(anna, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    bob = new_context().new_page()
    bob.goto(table)
    # Fetched: none. The streams carry the live part, and the form moves on to the next hand
    # from what the live part says of it (its own save answered with the result alone).
    fetched: list[str] = []
    for phone in (anna, bob):
        expect(phone.locator("html")).to_have_attribute("data-live", "stream")
        phone.on(
            "request",
            lambda request: (
                request.method == "GET"
                and ("/live/" in request.url or "form=1" in request.url)
                and fetched.append(request.url)
            ),
        )

    enter_hand(anna, {0: 2, 1: 12, 2: 20})
    save_hand(anna, 1)
    assert seen_after(bob, 1) < 1.0
    enter_hand(bob, {0: 20, 1: 2, 2: 12})
    save_hand(bob, 2)
    assert seen_after(anna, 2) < 1.0
    expect(anna.locator("#arrived")).to_have_text("Hand 2 saved on another phone.")
    shot(anna, "pushed")
    assert fetched == []

    # The server's worker is killed: every stream breaks. The phones' browsers open them again
    # (gunicorn has a new worker up within a second or so) and are sent the revision then.
    kill_the_worker(server)
    expect(anna.locator("html")).to_have_attribute("data-live", "stream")
    enter_hand(anna, {0: 5, 1: 15, 2: 25})
    save_hand(anna, 3)
    assert seen_after(bob, 3) < 10.0
    expect(bob.locator("html")).to_have_attribute("data-live", "stream")

    # Bob's phone loses its connection, and its stream with it, while hand 4 is saved; it
    # catches up when it is back.
    bob.context.set_offline(True)
    kill_the_worker(server)  # the streams break, and Bob's cannot open again while offline
    enter_hand(anna, {0: 20, 1: 2, 2: 12})
    save_hand(anna, 4)
    bob.wait_for_timeout(2000)
    expect(bob.locator("#hand-4")).to_have_count(0)
    bob.context.set_offline(False)
    assert seen_after(bob, 4) < 5.0
    expect(bob.locator("#hand-4")).to_have_class("arrived")


def kill_the_worker(server: Stack) -> None:
    worker = subprocess.check_output(["pgrep", "-P", str(server.processes[0].pid)]).split()[0]
    os.kill(int(worker), signal.SIGKILL)


def test_a_page_whose_stream_is_blocked_polls_instead(new_context):
    anna = new_context().new_page()
    table = start_table(anna, "jie-long", ["Anna", "Bob", "Celine"], leader=0)
    blocked = new_context()
    blocked.route("**/stream/?*", lambda route: route.abort())  # a proxy that lets none through
    bob = blocked.new_page()
    bob.goto(table)
    expect(bob.locator("html")).to_have_attribute("data-live", "poll", timeout=15_000)
    enter_hand(anna, {0: 2, 1: 12, 2: 20})
    save_hand(anna, 1)
    assert seen_after(bob, 1) < 5.0  # the next poll, at most 3 s on
