"""Smoke test of the production stack on one machine: PostgreSQL + gunicorn, over real HTTP.

    .venv/bin/python deploy/smoke.py        (make smoke; CI runs it)

Makes a throwaway database, migrates it, collects static files, starts gunicorn with
deploy/gunicorn.conf.py and DEBUG off, starts a Jie Long table through the web form, records
a hand, reads the summary, checks the settlement, then stops gunicorn and drops the database.
POSTGRES_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("SMOKE_PORT", "8765"))
BASE = f"http://127.0.0.1:{PORT}"
SERVER = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
DATABASE = f"ledger_smoke_{secrets.token_hex(4)}"


def admin(sql: str) -> None:
    with psycopg.connect(SERVER, dbname="postgres", autocommit=True) as connection:
        connection.execute(sql)


def database_url() -> str:
    parts = urllib.parse.urlsplit(SERVER)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{DATABASE}"))


class Browser:
    """Just enough of a browser: cookies, CSRF, forms."""

    def __init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> str:
        with self.opener.open(BASE + path, timeout=10) as response:
            return str(response.read().decode())

    def post(self, path: str, fields: dict[str, str]) -> tuple[str, str]:
        token = next(c.value for c in self.cookies if c.name == "csrftoken")
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(BASE + path, data=body, headers={"Referer": BASE + path})
        with self.opener.open(request, timeout=10) as response:
            return response.geturl(), str(response.read().decode())


def check(condition: bool, what: str) -> None:
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise SystemExit(1)


def main() -> int:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        "GUNICORN_BIND": f"127.0.0.1:{PORT}",
        "GUNICORN_WORKERS": "2",
    }
    python = sys.executable
    admin(f'CREATE DATABASE "{DATABASE}"')
    server = None
    try:
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([python, "manage.py", *command, "-v0"], cwd=ROOT, env=env, check=True)
        server = subprocess.Popen(
            [python, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "ledger.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        browser = Browser()
        for _ in range(100):
            try:
                home = browser.get("/")
                break
            except OSError:
                time.sleep(0.1)
        else:
            check(False, "gunicorn answers")
        check("Domino ledger" in home, f"gunicorn serves the home page on {BASE}")
        browser.get("/new/")
        seating = {"player_0": "Anna", "player_1": "Bob", "player_2": "Celine"}
        url, page = browser.post("/new/", {"game": "jie-long", "first": "0", **seating})
        table = urllib.parse.urlsplit(url).path
        check(re.fullmatch(r"/t/[\w-]{22}/", table) is not None, f"a table starts at {table}")
        key = re.search(r'name="key" value="([^"]+)"', page)
        hand = {"number": "1", "first": "Anna", "direction": "ccw", "action": "save"}
        hand |= {"pips-0": "2", "pips-1": "12", "pips-2": "34", "key": key[1] if key else ""}
        _, saved = browser.post(table, hand)
        check("Anna +42" in saved, "a hand is recorded over HTTP and settled (Anna +42)")
        browser.post(table, hand)  # the phone retries: same key, same hand
        summary = browser.get(table + "summary/")
        check("Celine → Anna 32" in summary, "the summary settles up (Celine pays Anna 32)")
        check(summary.count('<tr id="hand-') == 1, "a repeated submission stored nothing new")
        static = re.search(r'href="(/static/ledger/ledger\.[0-9a-f]+\.css)"', summary)
        check(static is not None and "body" in browser.get(static[1]), "whitenoise serves CSS")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        admin(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    print("smoke test passed: PostgreSQL + gunicorn, stopped and cleaned up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
