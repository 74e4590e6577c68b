"""The limits hold across gunicorn's workers, behind real gunicorn on PostgreSQL.

Requests sent at once on several connections, so that both workers serve them: together they
allow exactly the limit, then 429 (the counts are shared and atomic, ledger/web/cache.py), and an
X-Forwarded-For from a peer that is not a trusted proxy raises nothing. Behind a trusted proxy
(TRUSTED_PROXIES, here 127.0.0.1 as nginx on the same machine) each phone has its own count.
Runs on a throwaway database of the PostgreSQL server at POSTGRES_URL.
"""

from __future__ import annotations

import http.client
import json
import secrets
import urllib.parse
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from deploy.stack import production_stack
from tests.faults.conftest import SERVER, postgres

# Brings its own PostgreSQL database: in make test's PostgreSQL pass (skips without a server).
pytestmark = pytest.mark.own_postgresql

GUESS_LIMIT = 12
LOGIN_LIMIT = 5
NGINX = "127.0.0.1"  # trusted: what nginx's X-Forwarded-For says is believed
# Other loopback addresses reach the same server, as peers that are not trusted proxies.
GUESSER, SIGNER = "127.0.0.2", "127.0.0.3"


@pytest.fixture(scope="module")
def stack():
    postgres()
    with pytest.MonkeyPatch.context() as env:  # production_stack passes its environment on
        env.setenv("GUESS_LIMIT", str(GUESS_LIMIT))
        env.setenv("LOGIN_LIMIT", str(LOGIN_LIMIT))
        env.setenv("TRUSTED_PROXIES", NGINX)
        env.delenv("CACHE_URL", raising=False)
        with production_stack(SERVER, workers=2) as running:
            yield running


def _send(base: str, source: str, path: str, forwarded: str, sign_in: str = "") -> int:
    """One request on a new connection from ``source``; its status. With ``sign_in`` ("api"
    or "admin"), a POST of a wrong password there."""
    url = urllib.parse.urlsplit(base)
    headers = {"X-Forwarded-For": forwarded}
    fields = {"username": "organiser", "password": secrets.token_hex(8)}
    body = None
    if sign_in == "api":
        body, headers["Content-Type"] = json.dumps(fields), "application/json"
    elif sign_in == "admin":
        body = urllib.parse.urlencode(fields)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection(
        url.hostname, url.port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("POST" if sign_in else "GET", path, body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def _at_once(requests: list[Callable[[], int]]) -> Counter[int]:
    """Every request, eight at a time, each on its own connection: both workers serve them."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return Counter(pool.map(lambda send: send(), requests))


def _spoofed() -> str:
    return f"203.0.113.{secrets.randbelow(250)}, 198.51.100.{secrets.randbelow(250)}"


def _wrong_link() -> str:
    return f"/t/{secrets.token_urlsafe(16)}/"


def test_wrong_links_from_one_address_are_allowed_exactly_the_limit_across_workers(stack):
    def guess() -> int:
        return _send(stack.base, GUESSER, _wrong_link(), _spoofed())

    answers = _at_once([guess] * (3 * GUESS_LIMIT))

    assert answers == {404: GUESS_LIMIT, 429: 2 * GUESS_LIMIT}


def test_behind_a_trusted_proxy_each_phone_is_allowed_exactly_the_limit(stack):
    def guess(phone: str) -> int:
        forwarded = f"{_spoofed()}, {phone}"  # what nginx makes of a phone's made-up header
        return _send(stack.base, NGINX, _wrong_link(), forwarded)

    answers = _at_once([lambda: guess("192.0.2.7")] * (2 * GUESS_LIMIT))

    assert answers == {404: GUESS_LIMIT, 429: GUESS_LIMIT}
    assert guess("192.0.2.8") == 404  # another phone behind the same nginx: its own count


def test_sign_in_attempts_are_allowed_exactly_the_limit_across_workers_and_headers(stack):
    def sign_in(where: str) -> int:
        path = "/api/v1/auth/token/" if where == "api" else "/admin/login/"
        return _send(stack.base, SIGNER, path, _spoofed(), sign_in=where)

    answers = _at_once([lambda: sign_in("api"), lambda: sign_in("admin")] * (2 * LOGIN_LIMIT))

    # Wrong passwords: 401 from the API; 403 from the admin, whose form wants its CSRF token.
    assert answers[429] == 3 * LOGIN_LIMIT
    assert answers[401] + answers[403] == LOGIN_LIMIT
