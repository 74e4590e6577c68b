"""The shared cache (settings.CACHES): Django's own database cache, on the table that
``migrate`` makes (migration 0011), unlogged on PostgreSQL (0022). Run on SQLite and on
PostgreSQL (make test)."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.core.management import call_command
from django.db import connection

# Depends on the database: the cache table, unlogged on PostgreSQL.
pytestmark = pytest.mark.both_databases


def test_the_shared_cache_is_djangos_database_cache_on_the_table_migrate_made(db):
    assert type(caches["default"]) is DatabaseCache  # Django's own, not a subclass

    assert cache.add("k", "first", 60) is True
    assert cache.add("k", "second", 60) is False
    assert cache.get("k") == "first"
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM ledger_cache")
        assert cursor.fetchone()[0] == 1


def _persistence() -> str:
    """PostgreSQL's 'u' (unlogged) or 'p' (permanent, logged); SQLite keeps no such thing."""
    if connection.vendor != "postgresql":
        return "SQLite"
    with connection.cursor() as cursor:
        cursor.execute("SELECT relpersistence FROM pg_class WHERE relname = 'ledger_cache'")
        return str(cursor.fetchone()[0])


def test_migrate_unlogs_the_table_on_postgresql_and_backwards_logs_it_keeping_its_rows(
    transactional_db,
):
    unlogged, logged = ("u", "p") if connection.vendor == "postgresql" else ("SQLite", "SQLite")
    assert _persistence() == unlogged

    call_command("migrate", "ledger", "0021", verbosity=0)
    assert _persistence() == logged
    cache.set("k", "kept", 60)
    call_command("migrate", "ledger", verbosity=0)
    assert _persistence() == unlogged
    assert cache.get("k") == "kept"
