"""Django's database cache, each write one statement, with a count that two workers can add to
at once.

Every phone's save counts in the write limit, and after a change the live part is kept for the
table's phones (ledger/tables/views.py): at an event these writes come many a second. Django's
own cost five round trips each (count the rows, begin, read, write, commit); here ``set``,
``add`` and ``touch`` are one statement each, an upsert, on PostgreSQL and SQLite alike (the
databases settings.py allows; any other gets Django's). The rows are counted, and culled past
MAX_ENTRIES as Django does, once in CULL_CHECK_EVERY writes of a process rather than at each.

A whole number is stored as its digits after COUNT ("#5"), not pickled, so that ``incr`` adds
to it in the database, in the statement that reads it back: a count is one round trip too.
Anything else is pickled as Django pickles it, and a count pickled before is still read and
counted on.
"""

from __future__ import annotations

import base64
import pickle
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.timezone import now

CULL_CHECK_EVERY = 100  # writes of one process between counts of the rows
COUNT = "#"  # before a whole number's digits: not a character of base64, so never a pickle's
UPSERTS = ("postgresql", "sqlite")  # INSERT ... ON CONFLICT (PostgreSQL 9.5, SQLite 3.24)


class DatabaseCache(DjangoDatabaseCache):
    """Writes in one statement; ``incr`` a compare-and-swap that leaves the expiry alone.

    Django's ``incr`` is ``get`` then ``set``: two workers that count at once both read 4 and
    both write 5, and ``set`` restarts the expiry, so a window that keeps being hit never ends.
    Here the count is written only if it is still the one read, else read again; its expiry
    stays. A count is live until the second its expiry names has passed, as for ``add``: else
    in that second ``incr`` would find no count and ``add`` would refuse to begin a new one.
    """

    _table: str  # the table's name, which Django's __init__ sets and its stubs leave out
    _writes = 0  # this process's writes since the rows were last counted

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        self._upsert("set", key, value, timeout, version)

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        return self._upsert("add", key, value, timeout, version)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        connection = self._connection()
        if connection.vendor not in UPSERTS:
            return bool(super().touch(key, timeout, version))
        key = self.make_and_validate_key(key, version=version)
        table, quote = self._quoted(connection)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {quote('expires')} = %s WHERE {quote('cache_key')} = %s",
                [self._expiry(connection, timeout), key],
            )
            return bool(cursor.rowcount)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        """Django's, in one statement: a row past its expiry is left for the culling."""
        connection = self._connection()
        if not keys or connection.vendor not in UPSERTS:
            return dict(super().get_many(keys, version))
        named = {self.make_and_validate_key(key, version=version): key for key in keys}
        table, quote = self._quoted(connection)
        cache_key, marks = quote("cache_key"), ", ".join(["%s"] * len(named))
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {cache_key}, {quote('value')} FROM {table}"
                f" WHERE {cache_key} IN ({marks}) AND {quote('expires')} >= %s",
                [*named, self._now(connection)],
            )
            return {named[key]: self._decode(connection, value) for key, value in cursor}

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        connection = self._connection()
        if connection.vendor not in UPSERTS:
            return super().incr(key, delta, version)
        key = self.make_and_validate_key(key, version=version)
        table, quote = self._quoted(connection)
        value, expires, cache_key = quote("value"), quote("expires"), quote("cache_key")
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {value} = %s || CAST(CAST(substr({value}, 2) AS bigint) + %s"
                f" AS text) WHERE {cache_key} = %s AND {expires} >= %s AND {value} LIKE %s"
                f" RETURNING {value}",
                [COUNT, delta, key, self._now(connection), f"{COUNT}%"],
            )
            if row := cursor.fetchone():
                return self._decode(connection, row[0])
            # None, or one pickled: read, and write it back if no one counted meanwhile.
            while True:
                cursor.execute(
                    f"SELECT {value} FROM {table} WHERE {cache_key} = %s AND {expires} >= %s",
                    [key, self._now(connection)],
                )
                row = cursor.fetchone()
                if row is None:
                    raise ValueError(f"Key '{key}' not found")
                count = self._decode(connection, row[0]) + delta
                cursor.execute(
                    f"UPDATE {table} SET {value} = %s WHERE {cache_key} = %s AND {value} = %s",
                    [self._encode(count), key, row[0]],
                )
                if cursor.rowcount:
                    return count  # else another worker counted in between: read it again

    def _upsert(
        self, mode: str, key: Any, value: Any, timeout: float | None, version: int | None
    ) -> bool:
        """``set`` or ``add`` (which overwrites only a row that has expired): one statement."""
        connection = self._connection()
        if connection.vendor not in UPSERTS:
            setter = super().set if mode == "set" else super().add
            return bool(setter(key, value, timeout, version))
        key = self.make_and_validate_key(key, version=version)
        table, quote = self._quoted(connection)
        cache_key, expires = quote("cache_key"), quote("expires")
        sql = (
            f"INSERT INTO {table} ({cache_key}, {quote('value')}, {expires}) VALUES (%s, %s, %s) "
            f"ON CONFLICT ({cache_key}) DO UPDATE SET {quote('value')} = EXCLUDED.{quote('value')},"
            f" {expires} = EXCLUDED.{expires}"
        )
        params = [key, self._encode(value), self._expiry(connection, timeout)]
        if mode == "add":
            sql += f" WHERE {table}.{expires} < %s"
            params.append(self._now(connection))
        with connection.cursor() as cursor:
            self._cull_now_and_then(connection, cursor)
            cursor.execute(sql, params)
            return bool(cursor.rowcount)

    def _cull_now_and_then(self, connection: BaseDatabaseWrapper, cursor: Any) -> None:
        DatabaseCache._writes += 1
        if DatabaseCache._writes % CULL_CHECK_EVERY:
            return
        cursor.execute(f"SELECT COUNT(*) FROM {self._quoted(connection)[0]}")
        rows = cursor.fetchone()[0]
        if rows > self._max_entries:
            # Django's own culling (expired rows, then a third), which its stubs leave out
            self._cull(connection.alias, cursor, now().replace(microsecond=0), rows)  # type: ignore[attr-defined]

    def _connection(self) -> BaseDatabaseWrapper:
        return connections[router.db_for_write(self.cache_model_class)]

    def _quoted(self, connection: BaseDatabaseWrapper) -> tuple[str, Any]:
        return connection.ops.quote_name(self._table), connection.ops.quote_name

    def _now(self, connection: BaseDatabaseWrapper) -> Any:
        return connection.ops.adapt_datetimefield_value(now().replace(microsecond=0))

    def _expiry(self, connection: BaseDatabaseWrapper, timeout: float | None) -> Any:
        """The row's expiry as Django's own database cache stores it."""
        seconds = self.get_backend_timeout(timeout)
        if seconds is None:
            moment = datetime.max
        else:
            moment = datetime.fromtimestamp(seconds, tz=UTC if settings.USE_TZ else None)
        return connection.ops.adapt_datetimefield_value(moment.replace(microsecond=0))

    def _encode(self, value: Any) -> str:
        if type(value) is int:  # not a bool: True would come back as 1
            return f"{COUNT}{value}"
        return base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")

    def _decode(self, connection: BaseDatabaseWrapper, stored: Any) -> Any:
        text = str(connection.ops.process_clob(stored))
        if text.startswith(COUNT):
            return int(text[len(COUNT) :])
        return pickle.loads(base64.b64decode(text))
