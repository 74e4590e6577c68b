"""The PostgreSQL backend (ledger/web/postgresql): a kept connection is checked without a round
trip, and one the server ended is found unusable and replaced. Needs the server at POSTGRES_URL
(tests/faults/conftest.py); settings.py chooses the backend (tests/ledger/test_settings.py)."""

from __future__ import annotations

import os
import resource
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db.utils import ConnectionHandler

from tests.faults.conftest import postgres


@pytest.fixture
def server():
    url = postgres()
    other = psycopg.connect(url, dbname="postgres", autocommit=True)
    yield url, other
    other.close()


@pytest.fixture
def kept(server, django_db_blocker):
    """A connection as a server process keeps it between requests (to the server's own
    database, not the tests')."""
    url = urlsplit(server[0])
    settings = {
        "ENGINE": "ledger.web.postgresql",
        "NAME": "postgres",
        "USER": url.username or "postgres",
        "HOST": url.hostname,
        "PORT": url.port or 5432,
        "CONN_MAX_AGE": 600,
        "CONN_HEALTH_CHECKS": True,
    }
    wrapper = ConnectionHandler({"default": settings})["default"]
    with django_db_blocker.unblock():
        yield wrapper
        wrapper.close()


def _last_query(other: psycopg.Connection, pid: int) -> str:
    row = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row is not None
    return str(row[0])


def _query(kept) -> int:
    with kept.cursor() as cursor:
        cursor.execute("SELECT 'asked by the test'")
    return int(kept.connection.info.backend_pid)


def test_an_idle_kept_connection_is_checked_without_asking_the_server(server, kept):
    pid = _query(kept)
    kept.close_if_unusable_or_obsolete()  # a request ends: the next one checks first

    assert kept.is_usable()
    kept.close_if_health_check_failed()

    assert kept.connection.info.backend_pid == pid  # kept, not replaced
    assert _last_query(server[1], pid) == "SELECT 'asked by the test'"  # no SELECT 1 was sent


def test_a_connection_the_server_ended_is_replaced_before_the_next_query(server, kept):
    pid = _query(kept)
    kept.close_if_unusable_or_obsolete()
    # As a restart does: the server says why on the socket and closes it (waited for, up to 5 s).
    assert server[1].execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone() == (True,)

    assert not kept.is_usable()
    assert _query(kept) != pid  # the query's check closed it; the query ran on a new one


def test_a_connection_numbered_past_what_select_can_watch_is_checked_too(server, kept):
    """A streams server holds thousands of sockets: its database connections are numbered past
    1,023, which select() cannot watch."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1_200:
        pytest.fail(f"the test needs 1,200 open files, and this machine allows {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1_200), hard))
    filler: list[int] = []
    try:
        while not filler or filler[-1] < 1_100:  # every lower number taken
            filler.append(os.open(os.devnull, os.O_RDONLY))
        # A thread of this process (an earlier test's server) may close a file meanwhile, and
        # the connection take its number: that number is taken too, and the connection made again.
        for _ in range(10):
            pid = _query(kept)
            if kept.connection.fileno() > 1_023:
                break
            kept.close()
            filler.append(os.open(os.devnull, os.O_RDONLY))
        assert kept.connection.fileno() > 1_023
        kept.close_if_unusable_or_obsolete()
        assert kept.is_usable()
        server[1].execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
        assert not kept.is_usable()
    finally:
        for number in filler:
            os.close(number)
        kept.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_connection_in_a_transaction_is_asked_as_django_asks(server, kept):
    pid = _query(kept)
    kept.set_autocommit(False)
    _query(kept)

    assert kept.is_usable()
    assert _last_query(server[1], pid) == "SELECT 1"
    kept.rollback()
    kept.set_autocommit(True)
