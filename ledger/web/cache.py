"""Django's database cache, with a count that two workers can add to at once."""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import connections, router, transaction
from django.utils.timezone import now


class DatabaseCache(DjangoDatabaseCache):
    """``incr`` reads and writes the count in one transaction, and leaves its expiry alone.

    Django's ``incr`` is ``get`` then ``set``: two workers that count at once both read 4 and
    both write 5, and ``set`` restarts the expiry, so a window that keeps being hit never ends.
    Here the row is held from the read to the write: ``SELECT ... FOR UPDATE`` where the
    database has it (PostgreSQL), else the transaction itself holds the database's write lock
    from its start (SQLite, whose transactions settings.py makes IMMEDIATE). A count is live
    until the second its expiry names has passed, as for ``add``: else in that second ``incr``
    would find no count and ``add`` would refuse to begin a new one.
    """

    _table: str  # the table's name, which Django's __init__ sets and its stubs leave out

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table, value, expires = quote(self._table), quote("value"), quote("expires")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {value} FROM {table} WHERE {quote('cache_key')} = %s AND {expires} >= %s"
                + lock,
                [key, connection.ops.adapt_datetimefield_value(now().replace(microsecond=0))],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            count = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]))) + delta
            stored = base64.b64encode(pickle.dumps(count, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {value} = %s WHERE {quote('cache_key')} = %s", [stored, key]
            )
        return count
