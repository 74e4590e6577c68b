"""Writing behind the ledger's guards, for tests that need money or history the app would never
write: a swapped net, a deleted row, a hand changed without its record (what ``ledger_verify``
must find). The database refuses all of these otherwise (migration 0040_insert_only_history).

    with guards_off():
        Result.objects.filter(pk=row.pk).update(net=...)

Inside, no guard of the ledger's fires: on PostgreSQL the transaction runs as a replica
(``SET LOCAL session_replication_role = replica``: no trigger fires, nor the foreign keys' own,
so a superuser's connection is needed, as the tests' is); on SQLite ``ledger_guards_off`` holds a
row, the door its triggers wait on. Either lasts for the block alone, which is one transaction
(a savepoint within a test's own): nothing is checked at its commit for what it wrote, so
the corrupt rows stay for the test to look at. What the transaction wrote before the block is
checked as it enters it, on PostgreSQL; SQLite checks a hand again when rows of it are
written after.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def guards_off() -> Iterator[None]:
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # What the transaction wrote before is checked now, before it is tampered with: a
            # check queued for the commit would otherwise run on the tampered rows at it (or
            # at the end of a test, which asks for every such check).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            cursor.execute("SET LOCAL session_replication_role = replica")
            yield
            # Back to the session's own for the rest of a test's transaction (a savepoint's
            # rollback, on an error, undoes the SET LOCAL itself).
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")
        else:
            cursor.execute("INSERT INTO ledger_guards_off (why) VALUES ('a test')")
            yield
            cursor.execute("DELETE FROM ledger_guards_off")
