"""The database cache (ledger/web/cache.py): Django's semantics, each write one statement, and
its rows culled past MAX_ENTRIES now and then; on PostgreSQL its table unlogged. Run on SQLite and
on PostgreSQL (make test)."""

from __future__ import annotations

import base64
import pickle
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger.web import cache as database_cache
from ledger.web import limits

# Depends on the database: the cache table: an upsert of each database's own, unlogged on
# PostgreSQL.
pytestmark = pytest.mark.both_databases


def _expire_all() -> None:
    """Every row expired a second ago, as the clock would leave them."""
    gone = (timezone.now() - timedelta(seconds=1)).replace(microsecond=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ledger_cache SET expires = %s",
            [connection.ops.adapt_datetimefield_value(gone)],
        )


def test_set_add_touch_and_get_keep_djangos_meaning(db):
    assert cache.add("k", "first", 60) is True
    assert cache.add("k", "second", 60) is False  # a live row is left alone
    assert cache.get("k") == "first"

    cache.set("k", {"a": [1, 2]}, 60)  # set overwrites, whatever the value
    assert cache.get("k") == {"a": [1, 2]}
    assert cache.touch("k", 60) is True
    assert cache.touch("nothing", 60) is False

    _expire_all()
    assert cache.get("k") is None
    assert cache.add("k", "after", 60) is True  # an expired row is taken over
    assert cache.get("k") == "after"
    cache.set("forever", 1, None)
    assert cache.get("forever") == 1


def test_a_write_is_one_statement(db):
    cache.set("warm", 0, 60)
    database_cache.DatabaseCache._writes = 0  # no count of the rows due in these writes
    with CaptureQueriesContext(connection) as writes:
        cache.set("k", "v", 60)
        cache.add("k", "w", 60)
        cache.add("other", "w", 60)
        cache.touch("k", 60)
        cache.incr("warm")
        cache.get("k")

    assert len(writes) == 6  # a count and a read too


def test_a_count_goes_up_from_where_it_is_and_a_missing_one_is_an_error(db):
    cache.add("count", 0, 60)

    assert [cache.incr("count") for _ in range(3)] == [1, 2, 3]
    assert cache.incr("count", 10) == 13
    with pytest.raises(ValueError, match="not found"):
        cache.incr("no-such-count")
    _expire_all()
    with pytest.raises(ValueError, match="not found"):
        cache.incr("count")  # its window has passed


def test_a_count_pickled_before_counts_on_and_any_value_reads_back_as_it_was_set(db):
    stored = {"count": 0, "yes": True, "big": 2**40, "minus": -3, "text": "#5", "none": None}
    for key, value in stored.items():
        cache.set(key, value, 60)
    pickled = base64.b64encode(pickle.dumps(7)).decode()  # as a count was stored before
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_cache SELECT %s, %s, expires FROM ledger_cache"
            " WHERE cache_key = %s",
            [cache.make_key("old"), pickled, cache.make_key("count")],
        )

    assert cache.get_many(list(stored)) == stored
    assert type(cache.get("yes")) is bool
    assert cache.incr("old") == 8 and cache.incr("old") == 9  # then stored as a count
    assert cache.incr("big", 2) == 2**40 + 2 and cache.incr("minus") == -2
    assert cache.get("old") == 9


def test_rows_past_max_entries_are_culled_within_a_hundred_writes(db, monkeypatch):
    monkeypatch.setattr(caches["default"], "_max_entries", 50)  # the cache, not its proxy
    for n in range(database_cache.CULL_CHECK_EVERY * 2):
        cache.set(f"row-{n}", n, 60)

    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM ledger_cache")
        rows = cursor.fetchone()[0]
    assert rows < 50 + database_cache.CULL_CHECK_EVERY


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


def test_a_count_of_the_release_before_is_neither_read_nor_written_by_this_one(db):
    """Its rows (pickled counts) and this release's (digits) live under keys of their own
    (settings.CACHES's VERSION): workers of both, side by side for a moment, each count on."""
    before = cache.make_key(limits._key(limits.WRITES, "192.0.2.1"), version=1)
    cache.set("warm", 0, 60)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_cache SELECT %s, %s, expires FROM ledger_cache"
            " WHERE cache_key = %s",
            [before, base64.b64encode(pickle.dumps(41)).decode(), cache.make_key("warm")],
        )

    assert limits.count(limits.WRITES, "192.0.2.1") == 0
    assert limits.hit(limits.WRITES, "192.0.2.1", 60) == 1
    assert cache.get(limits._key(limits.WRITES, "192.0.2.1"), version=1) == 41  # left alone
