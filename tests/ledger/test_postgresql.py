"""Kept PostgreSQL connections, as settings.py configures them (Django's backend, kept for
CONN_MAX_AGE, checked with CONN_HEALTH_CHECKS): one the server ended is found unusable and
replaced before the next request's first query. Needs the server at POSTGRES_URL
(tests/faults/conftest.py); settings.py's choice is tests/ledger/test_settings.py's."""

from __future__ import annotations

import dj_database_url
import psycopg
import pytest
from django.db.utils import ConnectionHandler

from tests.faults.conftest import postgres

# Brings its own PostgreSQL database: in make test's PostgreSQL pass (skips without a server).
pytestmark = pytest.mark.own_postgresql


@pytest.fixture
def server():
    url = postgres()
    other = psycopg.connect(url, dbname="postgres", autocommit=True)
    yield url, other
    other.close()


@pytest.fixture
def kept(server, django_db_blocker):
    """A connection as a server process keeps it between requests (to the server's own
    database, not the tests'), with the options settings.py gives a DATABASE_URL."""
    settings = dj_database_url.parse(server[0], conn_max_age=600, conn_health_checks=True)
    wrapper = ConnectionHandler({"default": {**settings, "NAME": "postgres"}})["default"]
    with django_db_blocker.unblock():
        yield wrapper
        wrapper.close()


def _query(kept) -> int:
    with kept.cursor() as cursor:
        cursor.execute("SELECT 'asked by the test'")
    return int(kept.connection.info.backend_pid)


def test_an_idle_kept_connection_is_kept_for_the_next_request(server, kept):
    pid = _query(kept)
    kept.close_if_unusable_or_obsolete()  # a request ends: the next one checks first

    assert _query(kept) == pid


def test_a_connection_the_server_ended_is_replaced_before_the_next_query(server, kept):
    pid = _query(kept)
    kept.close_if_unusable_or_obsolete()
    # As a restart does: the server says why on the socket and closes it (waited for, up to 5 s).
    assert server[1].execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone() == (True,)

    assert _query(kept) != pid  # the query's check closed it; the query ran on a new one
