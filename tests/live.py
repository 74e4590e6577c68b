"""An event's and a group's tables, made on a running server (deploy/stack.py) for the tests of
their streams and live pages, and hands saved at them as another phone saves them (the API)."""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from deploy.stack import Stack, embedded_stack


@contextmanager
def embedded(guess_limit: int, **settings: str) -> Iterator[Stack]:
    """``make run``'s server with this guess limit, and these other settings (embedded_stack
    passes its environment on)."""
    with pytest.MonkeyPatch.context() as env:
        for name, value in {"GUESS_LIMIT": str(guess_limit), **settings}.items():
            env.setenv(name, value)
        with embedded_stack() as running:
            yield running


EVENT = """
from ledger.events import services
event = services.event_create(name="Club night", game="jie-long", options={"stake": 1}, rounds=2)
for name in ["Anna", "Bob", "Celine", "Dong", "Ewa", "Fang", "Gao", "Hui"]:
    services.entry_add(event=event, name=name, organiser=True)
services.round_seat(event=event)
services.round_begin(round=event.round_set.get())
table = event.round_set.get().tables.order_by("table_number").first()
print(event.read_token, event.token, table.token, ",".join(table.seating))
"""

GROUP = """
from ledger.groups import services
group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
table = services.table_start(group=group, seating=["Anna", "Bob", "Celine"], first="Anna")
print(group.token, table.token, ",".join(table.seating))
"""


def an_event(stack: Stack) -> tuple[str, str, str, list[str]]:
    """An event with its first round begun: its read token, organiser's token, the token of
    one of its tables and that table's seating."""
    read, token, table, seating = _last_line(stack.manage("shell", "-c", EVENT)).split()
    return read, token, table, seating.split(",")


def a_group(stack: Stack) -> tuple[str, str, list[str]]:
    """A group with a table: the group's token, the table's and its seating."""
    group, table, seating = _last_line(stack.manage("shell", "-c", GROUP)).split()
    return group, table, seating.split(",")


def _last_line(output: str) -> str:
    return output.strip().splitlines()[-1]  # after what the shell says of itself, if anything


def save(base: str, table: str, seating: list[str], number: int) -> float:
    """Record hand ``number`` at ``table`` through ``base``'s API; when it was acknowledged."""
    pips = [2, 12, 20 + number, 30][: len(seating)]
    hand = {"results": {name: {"pips": p} for name, p in zip(seating, pips, strict=True)}}
    request = urllib.request.Request(
        f"{base}/api/v1/sessions/{table}/hands/",
        data=json.dumps({"number": number, "hand": hand}).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": secrets.token_hex(8)},
    )
    urllib.request.urlopen(request, timeout=10).close()
    return time.monotonic()
