"""The production stack on one machine, for the smoke test, the fault test and the load benchmark.

    with production_stack("postgres://postgres@127.0.0.1:5432/postgres") as stack:
        urllib.request.urlopen(stack.base + "/ping/")

Makes a throwaway database on the PostgreSQL server at ``server``, migrates it, collects the
static files, starts gunicorn with deploy/gunicorn.conf.py and DEBUG off, as in production,
and waits until it is ready (/readyz: its database answers and every migration is applied); on
the way out it stops gunicorn and drops the database. With
``streams=N`` it also starts N ASGI servers (gunicorn with uvicorn's workers, on ledger.asgi,
as deploy/domino-ledger-streams.service does), each on a port of its own: ``stack.streams``.
The servers' log goes to ``log`` if given, else nowhere.

``embedded_stack()`` is ``make run``'s server instead (``manage.py serve``: pages and streams on
one port) on a throwaway SQLite folder.

``Stream`` reads a table's stream as a phone's browser does.
"""

from __future__ import annotations

import fcntl
import hashlib
import http.client
import os
import queue
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

import psycopg

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Stack:
    base: str  # http://127.0.0.1:PORT
    database_url: str
    env: dict[str, str]  # what gunicorn runs with, for manage.py commands against the stack
    streams: tuple[str, ...] = ()  # the ASGI servers' http://127.0.0.1:PORT, if any
    processes: tuple[subprocess.Popen[bytes], ...] = ()  # the servers' gunicorn masters

    def manage(self, *args: str) -> str:
        """Run a manage.py command against the stack's database; return what it printed."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def collect_static(self) -> None:
        """collectstatic into the checkout's one staticfiles/, one stack at a time: two stacks
        started at once (tests in two workers) would each delete and write the other's
        files, and one fails."""
        checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
        with open(Path(tempfile.gettempdir()) / f"ledger-static-{checkout}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.manage("collectstatic", "--noinput", "-v0")


def _admin(server: str, sql: str) -> None:
    with psycopg.connect(server, dbname="postgres", autocommit=True) as connection:
        connection.execute(sql)


def _gunicorn(env: dict[str, str], log: IO[bytes] | None, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", *args],
        cwd=ROOT,
        env=env,
        stdout=log or subprocess.DEVNULL,
        stderr=log or subprocess.DEVNULL,
    )


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


@contextmanager
def production_stack(
    server: str,
    *,
    port: int = 0,
    workers: int = 2,
    streams: int = 0,
    log: IO[bytes] | None = None,
    settings: Mapping[str, str] | None = None,
) -> Iterator[Stack]:
    database = f"ledger_{secrets.token_hex(4)}"
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(server)._replace(path=f"/{database}"))
    port = port or free_port()
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {"DATABASE_URL": url, "SECRET_KEY": secrets.token_urlsafe(50), "DEBUG": "false"}
    env |= {"ALLOWED_HOSTS": "127.0.0.1", "GUNICORN_BIND": f"127.0.0.1:{port}"}
    env |= {"GUNICORN_WORKERS": str(workers), **(settings or {})}
    stream_ports = [free_port() for _ in range(streams)]
    stack = Stack(
        f"http://127.0.0.1:{port}", url, env, tuple(f"http://127.0.0.1:{p}" for p in stream_ports)
    )
    _admin(server, f'CREATE DATABASE "{database}"')
    processes: list[subprocess.Popen[bytes]] = []
    try:
        stack.manage("migrate", "--noinput", "-v0")
        stack.collect_static()
        processes.append(_gunicorn(env, log, "ledger.wsgi"))
        for stream_port in stream_ports:
            bind = ("--bind", f"127.0.0.1:{stream_port}", "--workers", "1")
            processes.append(
                _gunicorn(env, log, "-k", "uvicorn_worker.UvicornWorker", *bind, "ledger.asgi")
            )
        for base in (stack.base, *stack.streams):
            _wait(base)
        yield replace(stack, processes=tuple(processes))
    finally:
        _stop(processes)
        _admin(server, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


@contextmanager
def embedded_stack(*, port: int = 0, settings: Mapping[str, str] | None = None) -> Iterator[Stack]:
    """``make run``'s server (``manage.py serve``), on a throwaway SQLite folder; ``settings``:
    environment it runs with besides (as for ``production_stack``)."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="ledger-embedded-") as folder:
        dropped = ("DATABASE_URL", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
        env = {k: v for k, v in os.environ.items() if k not in dropped}
        env |= {"DATA_DIR": folder, "DEBUG": "false", **(settings or {})}
        base = f"http://127.0.0.1:{port}"
        stack = Stack(base, "", env, (base,))
        stack.manage("migrate", "--noinput", "-v0")
        stack.collect_static()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait(base)
            yield replace(stack, processes=(server,))
        finally:
            _stop([server])


@dataclass(frozen=True)
class Event:
    """An event a stream sent: when it came, its id (the revision), its kind and its data."""

    came: float
    revision: int
    kind: str
    data: str


class Stream:
    """A stream read as a browser's EventSource reads it, on a thread of its own: each event
    sent, with when it came (``time.monotonic()``). A table's page's stream (``?rev=``) is sent
    the live part itself (event ``live``, its HTML in ``data``) rather than a revision the
    page does not show.

        with Stream(stack.streams[0] + f"/t/{token}/stream/") as stream:
            stream.next(timeout=1)
    """

    def __init__(
        self, url: str, last_event_id: str = "", headers: dict[str, str] | None = None
    ) -> None:
        parts = urllib.parse.urlsplit(url)
        headers = {"Accept": "text/event-stream", **(headers or {})}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        connection = http.client.HTTPConnection(parts.netloc, timeout=60)
        path = f"{parts.path}?{parts.query}" if parts.query else parts.path
        connection.request("GET", path, headers=headers)
        self._socket = connection.sock  # to cut it: a read in progress holds the response
        self.response = connection.getresponse()
        if self.response.status != 200:
            raise OSError(f"{url} answered {self.response.status}")
        self.events: queue.Queue[Event] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        fields: dict[str, list[str]] = {}
        try:
            for line in self.response:
                text = line.decode().rstrip("\r\n")
                if text:
                    name, _, value = text.partition(": ")
                    fields.setdefault(name, []).append(value)
                else:  # an event's end (a blank line after "retry" sends none)
                    if "id" in fields:
                        kind = fields.get("event", ["message"])[0]
                        data = "\n".join(fields.get("data", []))
                        self.events.put(Event(time.monotonic(), int(fields["id"][0]), kind, data))
                    fields = {}
        except (OSError, ValueError, AttributeError):
            pass  # closed (http.client's AttributeError: closed by another thread mid-read)

    def next(self, timeout: float) -> tuple[float, int]:
        """The next revision sent and when it came; queue.Empty after ``timeout`` seconds."""
        event = self.next_event(timeout)
        return event.came, event.revision

    def next_event(self, timeout: float) -> Event:
        """The next event sent; queue.Empty after ``timeout`` seconds."""
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        with suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        self.response.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _wait(base: str) -> None:
    # A minute: two test processes side by side on a slow day have taken over 10 s to start one.
    for _ in range(600):
        try:
            urllib.request.urlopen(base + "/readyz", timeout=2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server was not ready at {base}/readyz")
