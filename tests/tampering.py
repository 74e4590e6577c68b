"""Writes behind the services' back, for tests that show what ``manage.py ledger_verify`` finds
in a copy someone altered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def guards_off() -> Iterator[None]:
    """Run the writes inside with the database's guards switched off, as a copy restored
    without them would have let them through: on PostgreSQL its triggers (as a replica applies
    changes: the sum trigger and the foreign keys too), on SQLite nothing yet. Checks and
    unique constraints still hold."""
    with transaction.atomic():
        replica = connection.vendor == "postgresql"
        if replica:
            with connection.cursor() as cursor:
                # The checks already waiting for the commit (the sum, the foreign keys) run
                # now, on what was written before: else they would run at the test's end on
                # what is altered here.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
                cursor.execute("SET LOCAL session_replication_role = replica")
        yield
        # Rolled back with the savepoint on an error; set back by hand otherwise.
        if replica:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = DEFAULT")
