"""Load benchmark: a tournament hall on loopback against the production stack on PostgreSQL.

Starts gunicorn (deploy/gunicorn.conf.py, DEBUG off) on a throwaway PostgreSQL database,
then:
1. the ceiling: wrk, 10 s and 16 connections each, on a bare Django view (/ping/) and on the
   live-table poll that finds nothing new (204), three rounds alternating, in the same run;
2. the hall: every table has 4 phones; each phone polls its live view every 5 s; each table
   records a hand every 2 minutes, sent by all 4 of its phones at once (each with its own
   idempotency key, as four people pressing save), for ``seconds``.
It prints throughput, p50/p95/p99 latency, errors, duplicates and lost hands, and the poll's
throughput as a share of the bare view's. Loopback only; bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import subprocess
import time
import urllib.parse
from collections.abc import Iterator

import psycopg
from django.core.management.base import CommandError

from deploy.stack import production_stack
from ledger.bench.documents import EVENT_GAME, EVENT_PIPS
from ledger.bench.timing import measure_ceiling, percentiles

SERVER = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
POLL_EVERY = 5.0
HAND_EVERY = 120.0
SEATS = ["A", "B", "C", "D"]
CSRF = "b" * 32  # any well-formed secret: the phone sends it as cookie and header alike


# gunicorn's sync workers close every connection, and a closed connection holds its local port
# for a minute (TIME_WAIT): at 500 requests a second one loopback address runs out of ports.
# The phones spread over 16 loopback addresses, each with ports of its own.
SOURCES = [f"127.0.0.{i}" for i in range(2, 18)]


async def _request(port: int, method: str, path: str, body: str = "") -> tuple[int, bytes]:
    source = (random.choice(SOURCES), 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=source)
    head = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: close",
        f"Cookie: csrftoken={CSRF}",
        # When it was sent, as nginx stamps what it passes on: past capacity a poll that waited
        # too long in gunicorn's queue is shed (SHED_POLLS_AFTER_MS).
        f"X-Request-Start: t={time.time():.3f}",
    ]
    if method == "POST":
        head += [
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(body.encode())}",
            f"X-CSRFToken: {CSRF}",
            "HX-Request: true",
        ]
    writer.write(("\r\n".join(head) + "\r\n\r\n" + body).encode())
    data = await reader.read()
    writer.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data


async def _sleep_until(moment: float, end: float) -> None:
    """Sleep until ``moment``, but never past the end of the run."""
    await asyncio.sleep(max(0.0, min(moment, end) - time.monotonic()))


class Hall:
    def __init__(self, port: int, tables: list[str], seconds: float) -> None:
        self.port, self.tables, self.seconds = port, tables, seconds
        self.latencies: dict[str, list[float]] = {"poll": [], "save": [], "lag": []}
        self.errors: list[str] = []
        self.shed = 0  # polls answered 503 with Retry-After: asked again later, as the page does
        self.saved: dict[str, int] = {}  # table -> phones told "saved"
        self.taken: dict[str, int] = {}  # table -> phones told "already recorded"
        self.expected: set[str] = set()

    async def _timed(self, kind: str, method: str, path: str, body: str = "") -> bytes:
        start = time.perf_counter()
        try:
            status, data = await _request(self.port, method, path, body)
        except OSError as error:
            self.errors.append(f"{kind}: {error}")
            return b""
        self.latencies[kind].append((time.perf_counter() - start) * 1000)
        if kind == "poll" and status == 503:
            self.shed += 1
        elif status not in (200, 204):
            self.errors.append(f"{kind}: HTTP {status}")
        return data

    async def phone(self, token: str, end: float) -> None:
        """Poll as the page does: with the revision it last saw, learning the new one from a
        changed answer (204 when nothing changed)."""
        revision = b"0"
        await _sleep_until(time.monotonic() + random.uniform(0, POLL_EVERY), end)
        while time.monotonic() < end:
            data = await self._timed("poll", "GET", f"/t/{token}/live/?rev={revision.decode()}")
            if seen := re.search(rb"/live/\?rev=(\d+)", data):
                revision = seen[1]
            wait = POLL_EVERY
            if data.startswith(b"HTTP/1.1 503") and (
                after := re.search(rb"Retry-After: (\d+)", data)
            ):
                wait = int(after[1]) * (1 + random.random() / 2)  # as the page: up to half again
            await _sleep_until(time.monotonic() + wait, end)

    async def table(self, token: str, end: float) -> None:
        await _sleep_until(time.monotonic() + random.uniform(0, HAND_EVERY), end)
        number = 1
        while time.monotonic() < end:
            self.expected.add(f"{token}:{number}")
            fields = {"number": str(number), "first": "A", "direction": "ccw", "action": "save"}
            fields |= {f"pips-{i}": str(p) for i, p in enumerate(EVENT_PIPS)}
            sends = [
                self._timed(
                    "save",
                    "POST",
                    f"/t/{token}/",
                    urllib.parse.urlencode(fields | {"key": secrets.token_urlsafe(12)}),
                )
                for _ in SEATS
            ]
            for data in await asyncio.gather(*sends):
                if b'id="saved"' in data:
                    self.saved[token] = self.saved.get(token, 0) + 1
                elif b'id="taken"' in data:
                    self.taken[token] = self.taken.get(token, 0) + 1
            number += 1
            await _sleep_until(time.monotonic() + HAND_EVERY, end)

    async def watch_lag(self, end: float) -> None:
        """How late the simulated phones' own event loop wakes up: time that every latency
        measured here includes although the server has nothing to do with it."""
        while time.monotonic() < end:
            asked = time.perf_counter()
            await asyncio.sleep(0.01)
            self.latencies["lag"].append((time.perf_counter() - asked - 0.01) * 1000)

    async def run(self) -> float:
        end = time.monotonic() + self.seconds
        start = time.perf_counter()
        work = [self.phone(t, end) for t in self.tables for _ in SEATS]
        work += [self.table(t, end) for t in self.tables]
        work.append(self.watch_lag(end))
        await asyncio.gather(*work)
        return time.perf_counter() - start


def run(*, tables: int, seconds: float, port: int, workers: int) -> Iterator[str]:
    # The simulated phones come from 16 loopback addresses, each standing for many tables' phones
    # (a real phone is one address): the per-address write limit is lifted for the run.
    os.environ["API_WRITE_RATE"] = "1000000/min"
    with production_stack(SERVER, port=port, workers=workers) as stack:
        tokens = json.loads(stack.manage("shell", "-v0", "-c", _MAKE_TABLES % (EVENT_GAME, tables)))
        ceiling = measure_ceiling(
            lambda: _wrk(f"{stack.base}/ping/"),
            lambda: _wrk(f"{stack.base}/t/{tokens[0]}/live/?rev=0"),
        )
        yield ceiling.line(
            ceiling="bare Django view",
            figure="live poll (204)",
            unit="req/s",
            share_of="the bare view",
        )
        hall = Hall(port, tokens, seconds)
        took = asyncio.run(hall.run())
        yield from _report(hall, took, stack.database_url, len(tokens))


def _wrk(url: str) -> float:
    out = subprocess.run(
        ["wrk", "-t2", "-c16", "-d10s", url], capture_output=True, text=True, check=True
    ).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not match:
        raise CommandError(f"wrk said: {out}")
    return float(match[1])


def _report(hall: Hall, took: float, url: str, tables: int) -> Iterator[str]:
    requests = len(hall.latencies["poll"]) + len(hall.latencies["save"]) + len(hall.errors)
    with psycopg.connect(url) as db:
        stored = db.execute(
            "SELECT t.token, count(*) FROM ledger_hand h "
            "JOIN ledger_tablesession t ON t.id = h.session_id GROUP BY t.token"
        ).fetchall()
    stored_hands = sum(count for _, count in stored)
    duplicates = sum(max(0, n - 1) for n in hall.saved.values() if n > 1)
    lost = len(hall.expected) - stored_hands
    yield (
        f"hall: {tables} tables, {tables * len(SEATS)} phones, {took:.0f} s: "
        f"{requests:,} requests, {requests / took:,.0f} req/s"
    )
    yield (
        f"  live poll every {POLL_EVERY:.0f} s: {percentiles(hall.latencies['poll'])}; "
        f"{hall.shed:,} shed (503, asked again after Retry-After)"
    )
    yield f"  hand save (x4 phones): {percentiles(hall.latencies['save'])}"
    yield f"  all requests: {percentiles(hall.latencies['poll'] + hall.latencies['save'])}"
    yield f"  the phones' own delay (event loop lag): {percentiles(hall.latencies['lag'])}"
    yield (
        f"  errors {len(hall.errors)}, duplicates {duplicates}, lost hands {lost} "
        f"({stored_hands} hands stored of {len(hall.expected)} sent, "
        f"{sum(hall.taken.values())} extra sends told 'already recorded')"
    )
    if hall.errors:
        yield "  first errors: " + "; ".join(hall.errors[:5])


_MAKE_TABLES = """
import json
from ledger.tables import services
seats = ["A", "B", "C", "D"]
tokens = [
    services.session_create(game=%r, options={}, seating=seats, first="A").token
    for _ in range(%d)
]
print(json.dumps(tokens))
"""
