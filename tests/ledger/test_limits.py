"""Limits on guessing (table links, passwords): counted per real client address, in a store
that every worker shares, and only for links that match nothing (ledger/web/limits.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from django.db import connection, connections
from django.test import RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Event, LimitCount, TableSession
from ledger.web import limits
from ledger.web.middleware import LINK_PREFIXES
from tests.ledger.test_settings import PRODUCTION, manage
from tests.tables.conftest import form_post

# The tests that count in the limits' table carry both_databases: wrong links, sign-ins and
# writes are counted under each database's own lock (a row's on PostgreSQL, the write lock on
# SQLite), by racing threads too. Reading the client's address, the settings' checks at start
# and the list of routes under the guess limit ask no database.

NGINX = "127.0.0.1"  # where the tests' requests come from (Django's test client)


def _address(remote: str, forwarded: str | None = None) -> str:
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return limits.client_address(RequestFactory().get("/", **headers))


def test_the_client_address_is_where_the_request_came_from_whatever_headers_say(settings):
    settings.HTTPS = True
    settings.TRUSTED_PROXIES = []

    assert _address("198.51.100.4", "203.0.113.9") == "198.51.100.4"
    assert _address("198.51.100.4", "10.0.0.1, 203.0.113.9") == "198.51.100.4"


def test_behind_trusted_proxies_the_client_is_the_first_untrusted_hop_from_the_right(settings):
    settings.TRUSTED_PROXIES = [NGINX, "10.0.0.0/8"]

    # The phone 203.0.113.7 sent its own X-Forwarded-For (6.6.6.6); a load balancer at
    # 10.1.2.3 and nginx each appended the address they were sent from.
    assert _address(NGINX, "6.6.6.6, 203.0.113.7, 10.1.2.3") == "203.0.113.7"
    assert _address(NGINX, "203.0.113.7") == "203.0.113.7"
    assert _address(NGINX, "") == NGINX
    assert _address(NGINX) == NGINX
    assert _address(NGINX, "10.9.9.9, 10.1.2.3") == "10.9.9.9"  # every hop ours: the last
    assert _address(NGINX, "203.0.113.7, not-an-address") == NGINX
    assert _address("::ffff:127.0.0.1", "203.0.113.7") == "203.0.113.7"
    # Not from a trusted proxy: the header is whatever the sender wanted it to be.
    assert _address("198.51.100.4", "6.6.6.6, 203.0.113.7, 10.1.2.3") == "198.51.100.4"


@pytest.mark.parametrize("proxies", ["nginx", "10.0.0.300", "10.0.0.1/8", "127.0.0.1, ::1/200"])
def test_trusted_proxies_that_are_not_addresses_or_networks_stop_the_start(proxies):
    result = manage("check", **PRODUCTION | {"TRUSTED_PROXIES": proxies})

    assert result.returncode != 0
    assert "TRUSTED_PROXIES must list addresses or networks" in result.stderr


def test_a_cache_url_that_is_not_redis_stops_the_start():
    result = manage("check", **PRODUCTION | {"CACHE_URL": "memcached://127.0.0.1:11211"})

    assert result.returncode != 0
    assert "CACHE_URL must be unset or redis://" in result.stderr


@pytest.mark.both_databases
def test_a_count_keeps_the_window_its_first_hit_began(db):
    assert limits.hit("test", "198.51.100.4", 60) == 1
    began = LimitCount.objects.get().ends

    assert [limits.hit("test", "198.51.100.4", 3600) for _ in range(3)] == [2, 3, 4]
    assert LimitCount.objects.get().ends == began  # Django's cache's incr would have moved it
    assert limits.count("test", "198.51.100.4") == 4
    assert 55 < limits.wait("test", "198.51.100.4", 60) <= 60


def _expire(when: datetime) -> None:
    LimitCount.objects.update(ends=when)


@pytest.mark.both_databases
def test_a_hit_after_the_window_ended_begins_a_new_one(db):
    limits.hit("test", "198.51.100.4", 60)
    limits.hit("test", "198.51.100.4", 60)

    _expire(timezone.now() + timedelta(seconds=1))  # its last second
    assert limits.hit("test", "198.51.100.4", 60) == 3
    _expire(timezone.now())
    assert limits.count("test", "198.51.100.4") == 0
    assert limits.wait("test", "198.51.100.4", 60) == 60
    assert limits.hit("test", "198.51.100.4", 60) == 1
    assert limits.hit("test", "198.51.100.4", 60) == 2


@pytest.mark.both_databases
def test_a_client_counted_for_the_first_time_clears_the_counts_whose_window_passed(db):
    limits.hit("test", "198.51.100.4", 60)
    limits.hit("test", "198.51.100.5", 60)
    _expire(timezone.now())
    limits.hit("test", "198.51.100.6", 60)

    assert list(LimitCount.objects.values_list("client", flat=True)) == ["198.51.100.6"]


@pytest.mark.both_databases
def test_the_counts_table_is_unlogged_on_postgresql(db):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's own: SQLite has no unlogged tables")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = %s",
            [LimitCount._meta.db_table],
        )
        assert cursor.fetchone() == ("u",)


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_hits_counted_at_once_on_two_connections_are_all_counted():
    counts: list[int] = []

    def worker() -> None:
        try:
            counts.extend(limits.hit("test", "198.51.100.4", 60) for _ in range(40))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(counts) == list(range(1, 81))  # none lost, none seen twice
    assert limits.count("test", "198.51.100.4") == 80


@pytest.mark.both_databases
def test_allow_counts_every_hit_and_lets_through_exactly_the_limit(db):
    allowed = [limits.allow("test", "198.51.100.4", 60, most=3) for _ in range(5)]

    assert allowed == [True, True, True, False, False]
    assert limits.count("test", "198.51.100.4") == 5  # a refused hit counts too
    assert not limits.allow("test", "198.51.100.4", 60, most=7, cost=3)  # 8 of 7
    _expire(timezone.now())
    assert limits.allow("test", "198.51.100.4", 60, most=3, cost=3)  # a new window
    assert limits.count("test", "198.51.100.4") == 3


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_two_connections_asking_at_once_are_let_through_exactly_the_limit():
    allowed: list[bool] = []

    def worker() -> None:
        try:
            allowed.extend(limits.allow("test", "198.51.100.4", 60, most=50) for _ in range(40))
        finally:
            connections.close_all()

    limits.hit("test", "198.51.100.4", 60)  # the window begun: both race on the one update
    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert allowed.count(True) == 49 and len(allowed) == 80
    assert limits.count("test", "198.51.100.4") == 81


@pytest.mark.both_databases
def test_missing_hands_and_exports_of_a_real_table_are_not_guesses(client, ce_deng, settings):
    settings.GUESS_LIMIT = 3
    for _ in range(5):
        assert client.get(reverse("hand_detail", args=[ce_deng.token, 99])).status_code == 404
        assert client.get(reverse("export", args=[ce_deng.token, "nope"])).status_code == 404

    assert client.get(reverse("table", args=[ce_deng.token])).status_code == 200


@pytest.mark.both_databases
def test_tokens_that_match_no_table_or_event_are_guesses(client, ce_deng, settings):
    settings.GUESS_LIMIT = 4
    wrong = [
        reverse("table", args=["guess0000000000000000"]),
        reverse("live", args=["guess0000000000000000"]),
        reverse("organise", args=[ce_deng.token, "guess0000000000000000"]),
        reverse("event_results", args=["guess0000000000000000"]),
    ]

    missing_hand = reverse("hand_detail", args=[ce_deng.token, 99])

    answers = [(client.get(missing_hand).status_code, client.get(url).status_code) for url in wrong]

    assert answers == [(404, 404)] * 4  # only the second of each pair counted
    assert client.get(wrong[0]).status_code == 429
    assert client.get(reverse("table", args=[ce_deng.token])).status_code == 429


WRONG = "guess0000000000000000"


@pytest.fixture
def links(ce_deng) -> dict[str, tuple[str, str]]:
    """Each kind of link a page opens: (a right one, a wrong one)."""
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    return {
        "table": (f"/t/{ce_deng.token}/", f"/t/{WRONG}/"),
        "shared": (f"/s/{ce_deng.read_token}/", f"/s/{WRONG}/"),
        "event": (f"/o/{event.token}/", f"/o/{WRONG}/"),
        "register": (f"/j/{event.register_token}/", f"/j/{WRONG}/"),
        "results": (f"/e/{event.read_token}/", f"/e/{WRONG}/"),
        "group": (f"/g/{group.token}/", f"/g/{WRONG}/"),
        "table organiser": (
            f"/t/{ce_deng.token}/organise/{ce_deng.organiser_token}/",
            f"/t/{ce_deng.token}/organise/{WRONG}/",
        ),
        "group organiser": (
            f"/g/{group.token}/organise/{group.organiser_token}/",
            f"/g/{group.token}/organise/{WRONG}/",
        ),
    }


KINDS = ["table", "shared", "event", "register", "results", "group"]
KINDS += ["table organiser", "group organiser"]


@pytest.mark.both_databases
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_wrong_link_counts_in_the_one_guess_limit(client, links, settings, kind):
    settings.GUESS_LIMIT = 2
    wrong = links[kind][1]

    answers = [client.get(wrong).status_code for _ in range(3)]

    assert answers == [404, 404, 429]
    assert limits.count(limits.GUESSES, NGINX) == 2  # the third refused before it was tried


@pytest.mark.both_databases
@pytest.mark.parametrize("kind", KINDS)
def test_over_the_guess_limit_every_kind_of_link_is_refused_right_or_wrong(
    client, links, settings, kind
):
    right, wrong = links[kind]
    assert client.get(right).status_code in (200, 302)
    for _ in range(settings.GUESS_LIMIT):  # counted by any worker, on any kind of link
        limits.hit(limits.GUESSES, NGINX, 600)

    for refused in (client.get(right), client.get(wrong)):
        assert refused.status_code == 429
        assert 0 < int(refused["Retry-After"]) <= 600
        assert "Too many wrong table links" in refused.content.decode()


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "/") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route


def test_every_route_that_takes_a_token_is_under_the_guess_limit():
    taking = [route for route in _routes(get_resolver().url_patterns) if "<token:" in route]
    outside = [route for route in taking if not route.startswith(LINK_PREFIXES)]

    assert len(taking) > 50  # the pages, the API and the streams
    assert outside == []


@pytest.mark.both_databases
def test_an_untrusted_peer_cannot_spread_its_guesses_over_made_up_addresses(
    client, ce_deng, settings
):
    settings.HTTPS = True  # behind nginx, where X-Forwarded-For was believed as sent
    settings.TRUSTED_PROXIES = []
    settings.GUESS_LIMIT = 3
    url = reverse("table", args=["guess0000000000000000"])

    answers = [
        client.get(url, secure=True, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
        for i in range(5)
    ]

    assert answers == [404, 404, 404, 429, 429]


@pytest.mark.both_databases
def test_behind_a_trusted_proxy_each_phone_has_its_own_guess_count(client, ce_deng, settings):
    settings.TRUSTED_PROXIES = [NGINX]
    settings.GUESS_LIMIT = 2
    url = reverse("table", args=["guess0000000000000000"])

    def get(path: str, phone: str, spoofed: str) -> int:
        return client.get(path, HTTP_X_FORWARDED_FOR=f"{spoofed}, {phone}").status_code

    guesser = [get(url, "203.0.113.7", f"10.0.0.{i}") for i in range(3)]

    assert guesser == [404, 404, 429]
    assert get(reverse("table", args=[ce_deng.token]), "203.0.113.8", "203.0.113.7") == 200


@pytest.mark.both_databases
def test_signing_in_at_the_admin_is_limited_per_address(client, admin_user, settings):
    settings.LOGIN_LIMIT = 3
    url = reverse("admin:login")
    wrong = {"username": admin_user.username, "password": "guess"}
    right = {"username": admin_user.username, "password": "password"}  # pytest-django's

    answers = [client.post(url, wrong).status_code for _ in range(3)]
    blocked = client.post(url, right)
    page = client.get(url)
    elsewhere = client.post(url, right, REMOTE_ADDR="198.51.100.4")

    assert answers == [200, 200, 200]  # the form again, with its error
    assert blocked.status_code == 429
    assert "Too many sign-in attempts" in blocked.content.decode()
    assert 0 < int(blocked["Retry-After"]) <= limits.LOGIN_WINDOW
    assert page.status_code == 200  # only attempts are limited, not the page
    assert elsewhere.status_code == 302


@pytest.mark.both_databases
def test_the_live_poll_sees_guesses_another_worker_counted_at_once(client, ce_deng, settings):
    url = reverse("live", args=[ce_deng.token])
    assert client.get(url, {"rev": "0"}).status_code == 204
    for _ in range(settings.GUESS_LIMIT):  # another worker counts the address's guesses
        limits.hit(limits.GUESSES, NGINX, 600)

    # Not a few seconds later, as each worker's read of the count was kept for 5 s (issue 45).
    assert client.get(url, {"rev": "0"}).status_code == 429


def test_a_block_takes_effect_on_every_route_at_the_moment_it_is_reached(client, links, settings):
    """Every kind of link, page, API and poll, right link or wrong, asked once before the
    address reaches the limit (as the workers that answer them have read its count), and at
    once after another worker counted the guess that reached it: every one is 429."""
    settings.GUESS_LIMIT = 3
    table = links["table"][0].split("/")[2]
    right = [right for right, _ in links.values()]
    right += [f"/api/v1/sessions/{table}/", f"/t/{table}/live/?rev=0", f"/t/{table}/history/"]
    right += [f"/api/v1/sessions/{table}/hands/", f"/t/{table}/summary/"]
    before = [client.get(url).status_code for url in right]
    for _ in range(settings.GUESS_LIMIT):
        limits.hit(limits.GUESSES, NGINX, 600)

    after = {url: client.get(url).status_code for url in right}

    assert all(status < 400 for status in before), before
    assert after == dict.fromkeys(right, 429)


NEW_TABLE = {
    "game": "jie-long",
    "player_0": "Anna",
    "player_1": "Bob",
    "first": "draw",
}


@pytest.mark.both_databases
def test_web_forms_count_with_the_apis_writes_and_are_refused_in_the_users_language(
    client, db, settings
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "writes": "3/min",
        },
    }
    body = {"game": "jie-long", "seating": ["Anna", "Bob"], "first": "Anna"}
    statuses = [
        client.post("/api/v1/sessions/", body, content_type="application/json").status_code
        for _ in range(4)
    ]
    assert statuses == [201, 201, 201, 429]

    refused = client.post(reverse("session_new"), NEW_TABLE, HTTP_ACCEPT_LANGUAGE="zh-hans")
    event = client.post(reverse("event_new"), {"name": "Cup", "game": "jie-long", "rounds": 1})

    assert refused.status_code == 429 and event.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "秒" in refused.content.decode()  # the reader's language
    assert TableSession.objects.count() == 3 and not Event.objects.exists()


@pytest.mark.both_databases
def test_a_real_evening_never_meets_the_write_limit(client, db):
    # Ten tables behind one Wi-Fi address, each saving a hand about every two minutes: in the
    # busiest minute, a dozen writes against the 120 a minute allowed.
    tables = [client.post(reverse("session_new"), NEW_TABLE).url.split("/")[2] for _ in range(10)]
    for token in tables:
        session = TableSession.objects.get(token=token)
        post = form_post(1)
        assert client.post(reverse("table", args=[session.token]), post).status_code == 302
