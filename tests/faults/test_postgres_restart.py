"""PostgreSQL restarts in the middle of a burst of submissions, behind real gunicorn.

Every submission a phone saw acknowledged is stored exactly once, every phone's retries (same
idempotency key) eventually land, and the app serves again within seconds without a restart
of its own; each 503 meanwhile is a warning in the servers' log, not an error (a bug's).
Phones holding streams (an ASGI server beside the pages' workers) are sent every change made
after the restart, though the server's listening connection was cut. While PostgreSQL is down,
a stream being opened is told to come back later (503, Retry-After), as a page is. Runs on a
throwaway PostgreSQL cluster of its own, so the restart disturbs nothing else.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psycopg
import pytest

from deploy.stack import Stream, free_port, production_stack

# Brings its own PostgreSQL database: in make test's PostgreSQL pass (skips without a server).
pytestmark = pytest.mark.own_postgresql

ROOT = Path(__file__).resolve().parents[2]
BIN = Path("/usr/lib/postgresql/15/bin")
TABLES = 6
HANDS = 40  # per table, one phone each, saved one after another
DEADLINE = 60  # seconds for the whole burst


def _as_postgres(*command: str) -> None:
    subprocess.run(["su", "postgres", "-c", " ".join(command)], check=True, capture_output=True)


@pytest.fixture
def cluster():
    if not (BIN / "initdb").exists() or shutil.which("su") is None or os.geteuid() != 0:
        if os.environ.get("REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL 15 binaries and root are required (REQUIRE_POSTGRES is set)")
        pytest.skip("needs PostgreSQL 15's binaries and root, to run a throwaway cluster")
    folder = Path(tempfile.mkdtemp(prefix="ledger-pg-"))
    shutil.chown(folder, "postgres")
    port = free_port()
    _as_postgres(str(BIN / "initdb"), "-D", str(folder / "data"), "-U postgres --auth=trust")
    options = f"'-p {port} -k {folder} -c listen_addresses=127.0.0.1'"
    # With -l the server writes to a file, not to our pipes: else the call would never end.
    control = (str(BIN / "pg_ctl"), "-D", str(folder / "data"), "-o", options, "-w", "-l")
    control += (str(folder / "log"),)
    _as_postgres(*control, "start")
    try:
        yield port, control
    finally:
        _as_postgres(*control, "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


class Phone:
    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=5) as response:
            return str(response.read().decode())

    def post(self, path: str, fields: dict[str, str]) -> tuple[str, str]:
        """POST as htmx does; return the final URL and the body."""
        token = next(c.value for c in self.cookies if c.name == "csrftoken")
        body = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"X-CSRFToken": token, "HX-Request": "true"}
        )
        with self.opener.open(request, timeout=5) as response:
            return response.geturl(), str(response.read().decode())


def test_a_postgres_restart_mid_burst_loses_and_duplicates_nothing(cluster, monkeypatch, tmp_path):
    # Every phone here is one address (127.0.0.1) saving as fast as it can: the write limit,
    # which a real evening never meets, is lifted so that it does not stand in the way.
    monkeypatch.setenv("API_WRITE_RATE", "100000/min")
    port, control = cluster
    server = f"postgres://postgres@127.0.0.1:{port}/postgres"
    with (
        (tmp_path / "log").open("w+b") as log,
        production_stack(server, streams=1, log=log) as stack,
    ):
        tables = [_start_table(stack.base, i) for i in range(TABLES)]
        streams = [Stream(f"{stack.streams[0]}/t/{token}/stream/") for token in tables]
        for stream in streams:
            assert stream.next(timeout=5)[1] == 0
        acknowledged: dict[str, set[str]] = {token: set() for token in tables}
        failures: list[int] = []
        started = threading.Barrier(TABLES + 1)
        phones = [
            threading.Thread(target=_play, args=(stack.base, t, acknowledged[t], failures, started))
            for t in tables
        ]
        for phone in phones:
            phone.start()
        started.wait()
        time.sleep(0.3)
        _as_postgres(*control, "-m", "fast", "restart")
        restarted = time.monotonic()
        serving_again = _serving(stack.base, f"/t/{tables[0]}/live/?rev=-1")
        for phone in phones:
            phone.join(DEADLINE)
        # Each table's last change reaches its stream: heard, or read when the server's
        # listening connection came back.
        for stream in streams:
            revision = 0
            while revision < HANDS:
                revision = stream.next(timeout=DEADLINE)[1]
            stream.close()
        with psycopg.connect(stack.database_url) as db:
            rows = db.execute(
                "SELECT t.token, h.number, h.idempotency_key FROM ledger_hand h "
                "JOIN ledger_tablesession t ON t.id = h.session_id"
            ).fetchall()
        log.seek(0)
        said = log.read().decode(errors="replace").splitlines()

    print(
        f"{len(failures)} failed sends during the restart ({failures.count(503)} answered 503), "
        "all resent; "
        f"served again {serving_again - restarted:.2f} s after PostgreSQL was back"
    )
    assert failures, "the restart should have failed some submissions (else it tested nothing)"
    assert serving_again - restarted < 10, f"served again after {serving_again - restarted:.1f} s"
    # Each 503 of the outage is a warning: an ERROR line in the servers' log is a bug's.
    unavailable = [line for line in said if "Service Unavailable" in line]
    assert all(" WARNING django.request " in line for line in unavailable)
    assert not [line for line in said if " ERROR " in line]
    stored: dict[str, list[str]] = {token: [] for token in tables}
    for token, _number, key in rows:
        stored[token].append(key)
    for token in tables:
        assert len(stored[token]) == HANDS, "every hand landed, once"
        assert len(set(stored[token])) == HANDS, "no hand stored twice"
        assert acknowledged[token] <= set(stored[token]), "every acknowledged hand is stored"


def _start_table(base: str, i: int) -> str:
    phone = Phone(base)
    phone.get("/new/")
    seats = {f"player_{k}": f"P{i}-{k}" for k in range(4)}
    url, _ = phone.post("/new/", {"game": "jie-long", "first": "0", **seats})
    match = re.search(r"/t/([\w-]{22})/$", url)
    assert match, url
    return match[1]


def _play(
    base: str, token: str, acknowledged: set[str], failures: list[int], started: threading.Barrier
) -> None:
    """One phone records HANDS hands, retrying each with its key until it is acknowledged."""
    phone = Phone(base)
    phone.get(f"/t/{token}/")
    leader = re.search(r'<option value="([^"]+)" selected>', phone.get(f"/t/{token}/"))
    started.wait()
    end = time.monotonic() + DEADLINE
    for number in range(1, HANDS + 1):
        fields = {"number": str(number), "first": leader[1] if leader else "", "direction": "ccw"}
        fields |= {"pips-0": "2", "pips-1": "12", "pips-2": "34", "pips-3": "18"}
        fields |= {"action": "save", "key": secrets.token_urlsafe(12)}
        while time.monotonic() < end:
            try:
                _, body = phone.post(f"/t/{token}/", fields)
            except urllib.error.HTTPError as error:
                # An outage is a 503 to try again shortly, never a 500 (which is a bug).
                failures.append(error.code)
                assert error.code == 503 and error.headers["Retry-After"], error.code
                time.sleep(0.2)
                continue
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                failures.append(0)  # the phone keeps the hand and sends it again
                time.sleep(0.2)
                continue
            assert 'id="saved"' in body, body[:500]
            acknowledged.add(fields["key"])
            break


def _serving(base: str, path: str) -> float:
    """When ``path`` first answers 200 (polling every 0.1 s)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(base + path, timeout=5) as response:
                if response.status == 200:
                    return time.monotonic()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    return float("inf")


def test_while_postgres_is_down_a_new_stream_is_503_with_retry_after_as_a_page_is(cluster):
    port, control = cluster
    with production_stack(f"postgres://postgres@127.0.0.1:{port}/postgres", streams=1) as stack:
        token = _start_table(stack.base, 0)
        stream = f"{stack.streams[0]}/t/{token}/stream/"
        with Stream(stream) as held:
            assert held.next(timeout=5)[1] == 0
            _as_postgres(*control, "-m", "fast", "stop")
            try:
                # At once and a moment later (the guess limit's count cannot be read).
                at_once = _answer(stream)
                time.sleep(1)
                later = [_answer(url) for url in (stream, f"{stack.streams[0]}/e/{token}/stream/")]
                page = _answer(f"{stack.base}/t/{token}/")
            finally:
                _as_postgres(*control, "start")
            assert [at_once, *later] == [(503, "5")] * 3
            assert page == (503, "5")
        # Back: streams open again, with no restart of the server.
        with Stream(stream) as again:
            assert again.next(timeout=5)[1] == 0


def _answer(url: str) -> tuple[int, str | None]:
    """The status of a GET of ``url``, and its Retry-After."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Retry-After"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Retry-After"]
