"""Load benchmark: a tournament hall on loopback, its phones on streams and polling side by side.

Starts the production stack on a throwaway PostgreSQL database (deploy/stack.py): gunicorn's
sync workers (deploy/gunicorn.conf.py, DEBUG off) for pages, saves and live parts, and ASGI
servers for the streams, as deploy/ runs them. Then, in one run:

1. the ceiling: wrk on a bare Django view (/ping/), 10 s and 16 connections, three rounds,
   with the servers' CPU time counted (servers and PostgreSQL);
2. for each mode, halls of growing size until one is not held. A table has 4 phones and
   records a hand every 2 minutes, sent by all 4 phones at once (each with its own idempotency
   key, as four people pressing save). The phones behave as the page does:
   - on **streams**, a phone holds its table's stream, saying which revision it shows
     (``?rev=``), and is sent the live part by it when that changes; it fetches the live part
     (``/live/?rev=``) only when the stream sends a revision it does not show instead; a
     stream that breaks is opened again after the ``retry`` it was sent, with
     ``Last-Event-ID``;
   - on **polling**, a phone asks for the live part every 3 s with the revision it shows;
   - a live part answered 503 is asked again after its Retry-After, plus up to half again;
   - a save that fails (no answer, or 5xx) is sent again with its key after 2 s, 4 s, 8 s...
   A hall is held when every request's p99 (stream openings included) is under 200 ms, every
   phone of the table has a saved hand within 1 s at p99 (polling: within its interval and
   1 s), and there are no errors, no lost and no duplicated hands (lost: not stored when the
   phones stopped sending again, a minute after the hall);
3. for each mode, twice the largest hall held: what the server does past capacity;
4. with ``faults``, on streams, the largest hall held again for each fault, done to the servers
   in the middle of its hands (a streams worker killed, PostgreSQL restarted): every save must
   still be stored once and reach every phone of its table (item 8 of issue 21).

The phones run in processes of their own (a table's four phones and its saves in the same
one), kept off the servers' cores where the machine has cores to spare. Loopback only.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import multiprocessing
import os
import random
import re
import resource
import secrets
import shlex
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlencode

import psycopg
from django.core.management.base import CommandError

from deploy.stack import Stack, production_stack
from ledger.bench.documents import EVENT_GAME, EVENT_PIPS
from ledger.bench.timing import Ceiling, percentiles

SERVER = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
POLL_EVERY = 3.0  # the page's own interval (ledger.js POLL_EVERY)
HAND_EVERY = 120.0
RAMP = 30.0  # seconds over which the phones open their pages, before the hands start
SAVE_GRACE = 60.0  # seconds after the run in which a failed save is still sent again
SEATS = ["A", "B", "C", "D"]
CSRF = "b" * 32  # any well-formed secret: the phone sends it as cookie and header alike
REQUEST_P99_MS, SAVE_TO_PHONES_S = 200.0, 1.0  # a hall is held under both
PHONES_PER_PROCESS = 6000  # a process's file descriptors: one per stream, and its requests
MODES = ("stream", "poll")

# gunicorn's sync workers close every connection, and a closed connection holds its local port
# for a minute (TIME_WAIT): at 500 requests a second one loopback address runs out of ports.
# The phones spread over 16 loopback addresses, each with ports of its own.
SOURCES = [f"127.0.0.{i}" for i in range(2, 18)]


def _head(method: str, path: str, body: str = "") -> bytes:
    head = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: close",
        f"Cookie: csrftoken={CSRF}",
        # When it was sent, as nginx stamps what it passes on: past capacity a live part that
        # waited too long in gunicorn's queue is shed (SHED_POLLS_AFTER_MS).
        f"X-Request-Start: t={time.time():.3f}",
    ]
    if method == "POST":
        head += [
            "Content-Type: application/x-www-form-urlencoded",
            f"Content-Length: {len(body.encode())}",
            f"X-CSRFToken: {CSRF}",
            # As the page's form sends it (htmx): a save, or a hand taken, is answered in place.
            "HX-Request: true",
            "HX-Target: hand-form",
            "X-Ledger-In-Place: 1",
        ]
    return ("\r\n".join(head) + "\r\n\r\n" + body).encode()


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    source = (random.choice(SOURCES), 0)
    return await asyncio.open_connection("127.0.0.1", port, local_addr=source, limit=1 << 20)


_RETRY, _EVENT, _ID = (
    re.compile(rb"^%s: (\w+)" % name, re.M) for name in (b"retry", b"event", b"id")
)
_SHOWS = re.compile(rb'data-revision="(\d+)"')  # in a live part: the revision it shows


async def _events(reader: asyncio.StreamReader) -> AsyncIterator[tuple[bytes, int]]:
    """A table's stream as its page reads it, an event at a time: each event's kind and
    revision (a live part's, the revision it shows), and (b"retry", milliseconds) when the
    stream says how soon to open it again."""
    while True:
        try:
            block = await reader.readuntil(b"\n\n")  # an event's end: a line with nothing on it
        except asyncio.IncompleteReadError:
            return
        if retry := _RETRY.search(block):
            yield b"retry", int(retry[1])
        elif kind := _EVENT.search(block):
            shows = _SHOWS.search(block) if kind[1] == b"live" else None
            revision = shows or _ID.search(block)
            if revision is not None:
                yield kind[1], int(revision[1])


def _status(data: bytes) -> int:
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0


def _retry_after(data: bytes) -> float:
    """The wait a 503 asks for, plus up to half again, as the page does; 0 if none."""
    if _status(data) == 503 and (after := re.search(rb"(?i)\r\nretry-after: *(\d+)", data)):
        return int(after[1]) * (1 + random.random() / 2)
    return 0.0


def _retryable(data: bytes) -> bool:
    """No answer, or one the page sends its hand again after (ledger.js, ``retryable``)."""
    status = _status(data)
    return status == 0 or status >= 500 or status in (408, 429)


async def _sleep_until(moment: float, end: float) -> None:
    """Sleep until ``moment``, but never past the end of the run."""
    await asyncio.sleep(max(0.0, min(moment, end) - time.monotonic()))


@dataclass
class Table:
    token: str
    base: int  # its revision before the hall: hand n makes it base + n
    stream_port: int
    sent: dict[int, float] = field(default_factory=dict)  # revision -> when its save was sent
    seen: dict[int, list[float]] = field(default_factory=dict)  # revision -> phones' delays


@dataclass
class Results:
    """What one process of phones measured; added up across processes."""

    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"live": [], "save": [], "open": [], "lag": []}
    )
    to_phones: list[float] = field(default_factory=list)  # per save: until its last phone had it
    unseen: int = 0  # saves some phone had not seen 10 s after they were sent
    errors: list[str] = field(default_factory=list)
    shed: int = 0  # live parts answered 503 with Retry-After: asked again later
    saved: dict[str, int] = field(default_factory=dict)  # table -> phones told "saved"
    taken: int = 0  # sends told "already recorded"
    resent: int = 0  # saves that failed (no answer, or 5xx/408/429) and were sent again
    sent: int = 0
    cpu: float = 0.0  # the phones' own CPU seconds

    def add(self, other: Results) -> None:
        for kind, values in other.latencies.items():
            self.latencies[kind] += values
        self.to_phones += other.to_phones
        self.errors += other.errors
        self.saved |= other.saved
        self.unseen += other.unseen
        self.shed += other.shed
        self.taken += other.taken
        self.resent += other.resent
        self.sent += other.sent
        self.cpu += other.cpu

    @property
    def requests(self) -> list[float]:
        return self.latencies["live"] + self.latencies["save"] + self.latencies["open"]


class Phones:
    """The phones of some tables, in one process, in one mode."""

    def __init__(self, mode: str, port: int, tables: list[Table], seconds: float) -> None:
        self.mode, self.port, self.tables, self.seconds = mode, port, tables, seconds
        self.results = Results()

    async def _timed(self, kind: str, method: str, path: str, body: str = "") -> bytes:
        start = time.perf_counter()
        try:
            reader, writer = await _connect(self.port)
            writer.write(_head(method, path, body))
            data = await reader.read()
            writer.close()
        except OSError as error:
            self.results.errors.append(f"{kind}: {error}")
            return b""
        self.results.latencies[kind].append((time.perf_counter() - start) * 1000)
        if _retry_after(data):
            self.results.shed += 1
        elif _status(data) not in (200, 204):
            self.results.errors.append(f"{kind}: HTTP {_status(data)}")
        return data

    def _shows(self, table: Table, shown: int, now: int) -> int:
        """The phone now shows revision ``now``: the saves it brings are seen."""
        moment = time.monotonic()
        for revision in range(shown + 1, now + 1):
            if revision in table.sent:
                table.seen.setdefault(revision, []).append(moment - table.sent[revision])
        return max(shown, now)

    async def _fetch(self, table: Table, shown: int, end: float) -> int:
        """The live part, as the page fetches it: the revision it shows then."""
        while time.monotonic() < end:
            data = await self._timed("live", "GET", f"/t/{table.token}/live/?rev={shown}")
            if wait := _retry_after(data):
                await _sleep_until(time.monotonic() + wait, end)
                continue
            if seen := re.search(rb"/live/\?rev=(\d+)", data):
                return self._shows(table, shown, int(seen[1]))
            return shown
        return shown

    async def poll(self, table: Table, end: float, shown: int, until: float) -> int:
        """Ask every POLL_EVERY seconds until ``until``: the revision shown then."""
        while time.monotonic() < min(until, end):
            asked = time.monotonic()
            shown = await self._fetch(table, shown, end)
            await _sleep_until(max(asked + POLL_EVERY, time.monotonic()), min(until, end))
        return shown

    async def polling(self, table: Table, end: float) -> None:
        await _sleep_until(time.monotonic() + random.uniform(0, RAMP), end)
        await self.poll(table, end, table.base, end)

    async def streaming(self, table: Table, end: float) -> None:
        """Follow the stream; where it is refused, poll for a minute or so and try again."""
        shown = table.base
        await _sleep_until(time.monotonic() + random.uniform(0, RAMP), end)
        while time.monotonic() < end:
            try:
                async with asyncio.timeout(max(0.0, end - time.monotonic())):
                    shown, retry = await self._follow(table, shown, end)
            except TimeoutError:
                return
            except OSError as error:
                self.results.errors.append(f"stream: {error}")
                retry = 2.0
            if retry < 0:  # refused
                shown = await self.poll(
                    table, end, shown, time.monotonic() + random.uniform(60, 90)
                )
            else:
                await _sleep_until(time.monotonic() + retry, end)

    async def _follow(self, table: Table, shown: int, end: float) -> tuple[int, float]:
        """One stream, until it breaks: the revision shown then, and the seconds to wait
        before the next (-1: the stream was refused)."""
        reader, writer = await _connect(table.stream_port)
        start, retry = time.perf_counter(), 2.0
        head = [
            f"GET /t/{table.token}/stream/?rev={shown} HTTP/1.1",
            "Host: 127.0.0.1",
            "Accept: text/event-stream",
            f"Last-Event-ID: {shown}",
            f"X-Request-Start: t={time.time():.3f}",
        ]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
        try:
            data = await reader.readline()
            if _status(data) != 200:
                if not _retry_after(data + await reader.read()):
                    self.results.errors.append(f"stream: HTTP {_status(data)}")
                else:
                    self.results.shed += 1
                return shown, -1
            async for kind, revision in _events(reader):
                if kind == b"retry":
                    retry = revision / 1000
                    continue
                if start:
                    self.results.latencies["open"].append((time.perf_counter() - start) * 1000)
                    start = 0.0
                if kind == b"live":
                    shown = self._shows(table, shown, revision)
                elif revision > shown:
                    shown = await self._fetch(table, shown, end)
            return shown, retry
        finally:
            writer.close()

    async def table(self, table: Table, end: float) -> None:
        await _sleep_until(time.monotonic() + RAMP + random.uniform(0, HAND_EVERY), end)
        number = 1
        while time.monotonic() < end:
            table.sent[table.base + number] = time.monotonic()
            self.results.sent += 1
            fields = {"number": str(number), "first": "A", "direction": "ccw", "action": "save"}
            fields |= {f"pips-{i}": str(p) for i, p in enumerate(EVENT_PIPS)}
            sends = [
                self._save(table, fields | {"key": secrets.token_urlsafe(12)}, end) for _ in SEATS
            ]
            for data in await asyncio.gather(*sends):
                if b'id="saved"' in data:
                    self.results.saved[table.token] = self.results.saved.get(table.token, 0) + 1
                elif b'id="taken"' in data:
                    self.results.taken += 1
            number += 1
            await _sleep_until(time.monotonic() + HAND_EVERY, end)

    async def _save(self, table: Table, fields: dict[str, str], end: float) -> bytes:
        """A hand sent as the page sends it: one that fails (no answer, or an answer that says
        to try again) is kept and sent again, with the same key, after 2 s, then 4, 8... up
        to a minute, until SAVE_GRACE seconds after the run (ledger.js, ``flush``)."""
        wait = 2.0
        while True:
            data = await self._timed("save", "POST", f"/t/{table.token}/", urlencode(fields))
            if not _retryable(data) or time.monotonic() + wait > end + SAVE_GRACE:
                return data
            self.results.resent += 1
            await asyncio.sleep(wait)
            wait = min(wait * 2, 60.0)

    async def watch_lag(self, end: float) -> None:
        """How late the phones' own event loop wakes up: time that every latency measured
        here includes although the server has nothing to do with it."""
        while time.monotonic() < end:
            asked = time.perf_counter()
            await asyncio.sleep(0.01)
            self.results.latencies["lag"].append((time.perf_counter() - asked - 0.01) * 1000)

    async def run(self) -> Results:
        end = time.monotonic() + RAMP + self.seconds
        phone = self.streaming if self.mode == "stream" else self.polling
        work = [phone(t, end) for t in self.tables for _ in SEATS]
        work += [self.table(t, end) for t in self.tables]
        work.append(self.watch_lag(end))
        await asyncio.gather(*work)
        for table in self.tables:
            for revision, moment in table.sent.items():
                delays = table.seen.get(revision, [])
                if len(delays) == len(SEATS):
                    self.results.to_phones.append(max(delays))
                elif moment < end - 10:
                    self.results.unseen += 1
        self.results.cpu = time.process_time()
        return self.results


def _phones(mode: str, port: int, tables: list[Table], seconds: float) -> Results:
    """One process of phones (run in a child process)."""
    if cpus := os.environ.get("BENCH_PHONE_CPUS"):
        os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})
    # Thousands of phones are many objects: Python's full collections of them would stall every
    # request in flight, a delay the phones would measure as the server's (ledger/asgi.py).
    gc.set_threshold(10_000, 10, 1_000)
    return asyncio.run(Phones(mode, port, tables, seconds).run())


def _busy() -> float:
    """CPU seconds the whole machine has spent busy (/proc/stat): the servers and PostgreSQL,
    whose processes come and go (a backend per connection), with the phones' own taken off
    by the caller."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _wait, irq, softirq, steal = stat.readline().split()[1:9]
    busy = sum(int(n) for n in (user, nice, system, irq, softirq, steal))
    return busy / os.sysconf("SC_CLK_TCK")


@dataclass
class Hall:
    mode: str
    tables: int
    seconds: float
    results: Results
    cpu: float  # the machine's CPU seconds over the hall, less the phones' own
    stored: int
    duplicates: int
    fault: str = ""  # what was done to the servers in the middle of the hall, if anything

    @property
    def phones(self) -> int:
        return self.tables * len(SEATS)

    @property
    def lost(self) -> int:
        return self.results.sent - self.stored

    @property
    def held(self) -> bool:
        within = SAVE_TO_PHONES_S + (POLL_EVERY if self.mode == "poll" else 0)
        return (
            _p99(self.results.requests) < REQUEST_P99_MS
            and _p99(self.results.to_phones) < within
            and not (self.results.errors or self.results.unseen or self.lost or self.duplicates)
        )

    @property
    def recovered(self) -> bool:
        """After a fault: every save stored once and seen by every phone of its table."""
        return not (self.results.unseen or self.lost or self.duplicates)

    def cpu_per_phone_hour(self) -> float:
        return self.cpu / (self.phones * (RAMP + self.seconds) / 3600)


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else sum(values)


def _ceiling(stack: Stack) -> Ceiling:
    """Three rounds of wrk on the bare view: its requests a second (``ceiling``), and the CPU
    milliseconds the machine spent on each, less wrk's own (``figure``)."""
    rounds = []
    for _ in range(3):
        busy, wrk = _busy(), _children_cpu()
        rate = _wrk(f"{stack.base}/ping/")
        cpu = _busy() - busy - (_children_cpu() - wrk)
        rounds.append((rate, cpu * 1000 / (rate * WRK_SECONDS)))
    return Ceiling(tuple(rounds))


WRK_SECONDS = 10


def _wrk(url: str) -> float:
    out = subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{WRK_SECONDS}s", url], capture_output=True, text=True, check=True
    ).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not match:
        raise CommandError(f"wrk said: {out}")
    return float(match[1])


def _tables(stack: Stack, count: int) -> list[Table]:
    made = json.loads(stack.manage("shell", "-v0", "-c", _MAKE_TABLES % (EVENT_GAME, count)))
    ports = [int(base.rsplit(":", 1)[1]) for base in stack.streams]
    return [Table(t, r, ports[i % len(ports)]) for i, (t, r) in enumerate(made)]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


Fault = Callable[[Stack], str]  # does something to the servers; says what it did


def _hall(stack: Stack, mode: str, count: int, seconds: float, fault: Fault | None = None) -> Hall:
    tables = _tables(stack, count)
    port = int(stack.base.rsplit(":", 1)[1])
    processes = max(1, math.ceil(count * len(SEATS) / PHONES_PER_PROCESS))
    shares = [tables[i::processes] for i in range(processes)]
    done: list[str] = []
    # In the middle of the hands: half the hall's saves come before it, half after.
    timer = threading.Timer(RAMP + seconds / 2, lambda: done.append(fault(stack) if fault else ""))
    busy = _busy()
    if fault:
        timer.start()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        parts = pool.starmap(_phones, [(mode, port, share, seconds) for share in shares])
    timer.cancel()
    results = Results()
    for part in parts:
        results.add(part)
    cpu = _busy() - busy - results.cpu
    tokens = [t.token for t in tables]
    with psycopg.connect(stack.database_url) as db:
        stored = db.execute(
            "SELECT count(*) FROM ledger_hand h JOIN ledger_tablesession t "
            "ON t.id = h.session_id WHERE t.token = ANY(%s)",
            [tokens],
        ).fetchone()
    duplicates = sum(n - 1 for n in results.saved.values() if n > 1)
    stored_count = stored[0] if stored else 0
    return Hall(mode, count, seconds, results, cpu, stored_count, duplicates, "; ".join(done))


def kill_a_stream_worker(stack: Stack) -> str:
    """SIGKILL the first streams server's worker, as the kernel's OOM killer would: its
    phones' streams break, gunicorn starts another, and they connect again."""
    master = stack.processes[1]  # after the pages' gunicorn (deploy/stack.py)
    worker = int(subprocess.check_output(["pgrep", "-P", str(master.pid)]).split()[0])
    os.kill(worker, signal.SIGKILL)
    return f"killed streams worker {worker} (one of {len(stack.streams)} streams servers)"


def restart_postgres(command: str) -> Fault:
    """Run ``command``, which restarts the PostgreSQL server the stack uses."""

    def restart(stack: Stack) -> str:
        started = time.monotonic()
        subprocess.run(shlex.split(command), check=True, capture_output=True)
        return f"PostgreSQL restarted ({command!r}, {time.monotonic() - started:.1f} s)"

    return restart


def _affinity() -> tuple[str, str]:
    """The servers' CPUs and the phones' (the same ones on a machine of fewer than 4 cores)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 4:
        return ",".join(map(str, cpus)), ",".join(map(str, cpus))
    half = len(cpus) // 2
    return ",".join(map(str, cpus[:half])), ",".join(map(str, cpus[half:]))


def run(
    *,
    halls: list[int],
    seconds: float,
    port: int,
    workers: int,
    streams: int,
    modes: list[str],
    faults: tuple[Fault, ...] = (),
) -> Iterator[str]:
    # The simulated phones come from 16 loopback addresses, each standing for many tables' phones
    # (a real phone is one address): the per-address limits are lifted for the run.
    os.environ |= {"API_WRITE_RATE": "1000000/min", "GUESS_LIMIT": "1000000"}
    os.environ |= {"STREAMS_PER_ADDRESS": "1000000"}
    server_cpus, phone_cpus = _affinity()
    os.sched_setaffinity(0, {int(c) for c in server_cpus.split(",")})
    with (
        tempfile.NamedTemporaryFile(prefix="bench-load-", suffix=".log", delete=False) as log,
        production_stack(SERVER, port=port, workers=workers, streams=streams, log=log) as stack,
    ):
        os.environ["BENCH_PHONE_CPUS"] = phone_cpus
        shared = "shared with the servers" if server_cpus == phone_cpus else f"CPUs {phone_cpus}"
        # The workers' kind, as deploy/gunicorn.conf.py chooses it.
        threads = int(os.environ.get("GUNICORN_THREADS") or 1)
        kind = "sync workers" if threads == 1 else f"gthread workers of {threads} threads"
        yield (
            f"servers on CPUs {server_cpus}: {workers} {kind}, {streams} stream servers, "
            f"PostgreSQL; the phones: {shared}; the servers' log: {log.name}"
        )
        ceiling = _ceiling(stack)
        yield (
            f"ceiling: bare Django view {ceiling.ceiling:,.0f} req/s (median of 3 rounds: "
            + ", ".join(f"{r:,.0f}" for r, _ in ceiling.rounds)
            + f"), {ceiling.figure:.2f} ms of CPU per request (the machine's, less wrk's)"
        )
        for mode in modes:
            held: Hall | None = None
            for count in halls:
                hall = _hall(stack, mode, count, seconds)
                yield from _report(hall, ceiling)
                if not hall.held:
                    break
                held = hall
            if held is None:
                yield f"{mode}: no hall held"
                continue
            yield (
                f"{mode}: largest hall held {held.tables:,} tables, {held.phones:,} phones; "
                f"{held.cpu_per_phone_hour():.2f} CPU s per phone-hour "
                f"= {held.cpu_per_phone_hour() * 1000 / ceiling.figure:,.0f} bare view requests"
            )
            yield f"{mode}: twice that hall, past capacity:"
            yield from _report(_hall(stack, mode, held.tables * 2, seconds), ceiling)
            for fault in faults if mode == "stream" else []:
                hall = _hall(stack, mode, held.tables, seconds, fault)
                yield f"{mode}: that hall again, with a fault in its middle: {hall.fault}"
                yield from _report(hall, ceiling)
                verdict = "yes" if hall.recovered else "NO"
                yield f"  every save stored once and seen by every phone after it: {verdict}"


def _report(hall: Hall, ceiling: Ceiling) -> Iterator[str]:
    r = hall.results
    took = RAMP + hall.seconds
    served = len(r.requests) / took
    yield (
        f"{hall.mode}, {hall.tables:,} tables, {hall.phones:,} phones, {took:.0f} s: "
        f"{'HELD' if hall.held else 'not held'}; {len(r.requests):,} requests, "
        f"{served:,.0f} req/s = {served / ceiling.ceiling:.1%} of the ceiling"
    )
    yield f"  all requests: {percentiles(r.requests)}"
    if r.latencies["open"]:
        yield f"  stream opened (to its first event): {percentiles(r.latencies['open'])}"
    yield f"  live part: {percentiles(r.latencies['live'])}; {r.shed:,} shed (503, asked again)"
    yield f"  hand save (x4 phones): {percentiles(r.latencies['save'])}"
    to_phones = [s * 1000 for s in r.to_phones]
    yield f"  from a save to every phone of its table: {percentiles(to_phones)}"
    yield (
        f"  server CPU {hall.cpu:.0f} s: {hall.cpu_per_phone_hour():.2f} s per phone-hour "
        f"= {hall.cpu_per_phone_hour() * 1000 / ceiling.figure:,.0f} bare view requests; "
        f"the phones' own CPU {r.cpu:.0f} s, event loop lag {percentiles(r.latencies['lag'])}, "
        f"longest {max(r.latencies['lag'], default=0):.0f} ms"
    )
    yield (
        f"  errors {len(r.errors)}, duplicates {hall.duplicates}, lost hands {hall.lost}, "
        f"unseen saves {r.unseen} ({hall.stored} hands stored of {r.sent} sent, "
        f"{r.taken} extra sends told 'already recorded', {r.resent} saves sent again)"
    )
    if r.errors:
        yield "  first errors: " + "; ".join(r.errors[:5])


_MAKE_TABLES = """
import json
from ledger.tables import services
seats = ["A", "B", "C", "D"]
made = [
    services.session_create(game=%r, options={}, seating=seats, first="A")
    for _ in range(%d)
]
print(json.dumps([[t.token, t.revision] for t in made]))
"""
