"""Smoke test of the production stack on one machine: PostgreSQL + gunicorn (the pages' sync
workers, and the streams' uvicorn workers), over real HTTP.

    .venv/bin/python -m deploy.smoke        (make smoke; CI runs it)

Makes a throwaway database, migrates it, collects static files, starts gunicorn with
deploy/gunicorn.conf.py and DEBUG off, asks the probes (/healthz, /readyz), starts a Jie Long
table through the web form, records a hand while a phone holds the table's stream (which
delivers it), reads the summary, checks the settlement, then stops gunicorn and drops the
database.
POSTGRES_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import sys
import urllib.parse
import urllib.request

from deploy.stack import Stream, production_stack

SERVER = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PORT = int(os.environ.get("SMOKE_PORT", "8765"))
BASE = f"http://127.0.0.1:{PORT}"


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
    with production_stack(SERVER, port=PORT, streams=1) as stack:
        browser = Browser()
        home = browser.get("/")
        check("Domino ledger" in home, f"gunicorn serves the home page on {BASE}")
        check(json.loads(browser.get("/healthz")) == {"status": "ok"}, "/healthz: it answers")
        ready = json.loads(browser.get("/readyz"))  # a 503 would raise
        check(ready["status"] == "ready", "/readyz: PostgreSQL answers, every migration applied")
        browser.get("/new/")
        seating = {"player_0": "Anna", "player_1": "Bob", "player_2": "Celine"}
        url, page = browser.post("/new/", {"game": "jie-long", "first": "0", **seating})
        table = urllib.parse.urlsplit(url).path
        check(re.fullmatch(r"/t/[\w-]{22}/", table) is not None, f"a table starts at {table}")
        key = re.search(r'name="key" value="([^"]+)"', page)
        hand = {"number": "1", "first": "Anna", "direction": "ccw", "action": "save"}
        hand |= {"pips-0": "2", "pips-1": "12", "pips-2": "34", "key": key[1] if key else ""}
        with Stream(stack.streams[0] + table + "stream/?rev=0") as stream:
            check(stream.next(timeout=10)[1] == 0, "a phone holds the table's stream (uvicorn)")
            _, saved = browser.post(table, hand)
            check("Anna +42" in saved, "a hand is recorded over HTTP and settled (Anna +42)")
            pushed = stream.next_event(timeout=5)
            check(
                (pushed.kind, pushed.revision) == ("live", 1) and 'id="hand-1"' in pushed.data,
                "the stream delivers the save, the table's live part with it (LISTEN/NOTIFY)",
            )
        browser.post(table, hand)  # the phone retries: same key, same hand
        summary = browser.get(table + "summary/")
        check("Celine → Anna 32" in summary, "the summary settles up (Celine pays Anna 32)")
        check(summary.count('<tr id="hand-') == 1, "a repeated submission stored nothing new")
        static = re.search(r'href="(/static/ledger/ledger\.[0-9a-f]+\.css)"', summary)
        check(static is not None and "body" in browser.get(static[1]), "whitenoise serves CSS")
        docs = browser.get("/api/v1/docs/")
        bundle = re.search(r'src="(/static/drf_spectacular_sidecar/[^"]+bundle[^"]*\.js)"', docs)
        check(bundle is not None and len(browser.get(bundle[1])) > 100_000, "API docs, self-hosted")
        api_hands = json.loads(browser.get(table.replace("/t/", "/api/v1/sessions/", 1) + "hands/"))
        check(api_hands[0]["result"]["net"]["Anna"] == "42.00", "the API reads the same hand")
    print("smoke test passed: PostgreSQL + gunicorn + uvicorn, stopped and cleaned up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
