"""The cache of the tables' live parts (settings.CACHES): Django's local-memory cache, one per
server process, unless CACHE_URL names Redis. The database cache it replaced had a table of its
own (migration 0011, unlogged on PostgreSQL by 0022), which migration 0034 drops. Run on SQLite
and on PostgreSQL (make test)."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.management import call_command
from django.db import connection

TABLE = "ledger_cache"


def test_the_live_parts_are_kept_in_djangos_local_memory_cache():
    assert type(caches["default"]) is LocMemCache  # Django's own, not a subclass

    assert cache.add("k", "first", 60) is True
    assert cache.add("k", "second", 60) is False
    assert cache.get("k") == "first"


def _persistence() -> str | None:
    """None if the cache's table is not there; else PostgreSQL's 'u' (unlogged) or 'p'
    (permanent, logged), or "SQLite", which keeps no such thing."""
    if TABLE not in connection.introspection.table_names():
        return None
    if connection.vendor != "postgresql":
        return "SQLite"
    with connection.cursor() as cursor:
        cursor.execute("SELECT relpersistence FROM pg_class WHERE relname = %s", [TABLE])
        return str(cursor.fetchone()[0])


# Depends on the database: the table, unlogged on PostgreSQL.
@pytest.mark.both_databases
def test_migrate_drops_the_cache_table_and_backwards_makes_it_again_as_it_was(transactional_db):
    assert _persistence() is None

    call_command("migrate", "ledger", "0033", verbosity=0)
    try:
        assert _persistence() == ("u" if connection.vendor == "postgresql" else "SQLite")
        with connection.cursor() as cursor:  # as Django's database cache writes it
            cursor.execute(
                f"INSERT INTO {TABLE} (cache_key, value, expires) VALUES (%s, %s, %s)",
                [":1:live", "gAWILg==", "2026-11-28 20:00:00"],
            )
    finally:
        call_command("migrate", "ledger", verbosity=0)
    assert _persistence() is None
