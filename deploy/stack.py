"""The production stack on one machine, for the smoke test, the fault test and the load benchmark.

    with production_stack("postgres://postgres@127.0.0.1:5432/postgres") as stack:
        urllib.request.urlopen(stack.base + "/ping/")

Makes a throwaway database on the PostgreSQL server at ``server``, migrates it (and makes the
cache table), collects the static files, starts gunicorn with deploy/gunicorn.conf.py and DEBUG
off, as in production, and waits until it is ready (/readyz: its database answers and every
migration is applied); on the way out it stops gunicorn and drops the database.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


def _admin(server: str, sql: str) -> None:
    with psycopg.connect(server, dbname="postgres", autocommit=True) as connection:
        connection.execute(sql)


@contextmanager
def production_stack(server: str, *, port: int = 0, workers: int = 2) -> Iterator[Stack]:
    database = f"ledger_{secrets.token_hex(4)}"
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(server)._replace(path=f"/{database}"))
    port = port or free_port()
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {"DATABASE_URL": url, "SECRET_KEY": secrets.token_urlsafe(50), "DEBUG": "false"}
    env |= {"ALLOWED_HOSTS": "127.0.0.1", "GUNICORN_BIND": f"127.0.0.1:{port}"}
    env |= {"GUNICORN_WORKERS": str(workers)}
    stack = Stack(f"http://127.0.0.1:{port}", url, env)
    _admin(server, f'CREATE DATABASE "{database}"')
    server_process = None
    try:
        stack.manage("migrate", "--noinput", "-v0")
        stack.manage("collectstatic", "--noinput", "-v0")
        server_process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "ledger.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(stack.base)
        yield stack
    finally:
        if server_process is not None:
            server_process.terminate()
            server_process.wait(timeout=30)
        _admin(server, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def _wait(base: str) -> None:
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/readyz", timeout=2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn was not ready at {base}/readyz")
