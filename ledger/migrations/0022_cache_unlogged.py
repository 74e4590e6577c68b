"""The shared cache's table (0011, ``ledger_cache``) unlogged on PostgreSQL.

What it keeps is minutes' worth and can be made again: the limits' counts, and the live part
of a table rendered once for its phones (ledger/tables/live.py). Every phone's save writes a
count, and every change a live part, so on a busy evening these are most of the database's
writes. Unlogged, they skip the write-ahead log and no commit waits for the disk. After a
crash (not a clean restart) PostgreSQL empties the table: the counts start again and the
parts are rendered again. A replica has no copy, which nothing reads there.

Stored hands, results and players are not in it. SQLite has no such table; with the counts in
Redis (CACHE_URL) there is no table to change.
"""

from django.core.cache import caches
from django.core.cache.backends.db import BaseDatabaseCache
from django.db import migrations


def _persistence(kind: str):
    def change(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        existing = set(connection.introspection.table_names())
        for alias in caches:
            store = caches[alias]
            if isinstance(store, BaseDatabaseCache) and store._table in existing:
                schema_editor.execute(
                    f"ALTER TABLE {schema_editor.quote_name(store._table)} SET {kind}"
                )

    return change


class Migration(migrations.Migration):
    dependencies = [("ledger", "0021_event_and_group_revision")]

    operations = [migrations.RunPython(_persistence("UNLOGGED"), _persistence("LOGGED"))]
