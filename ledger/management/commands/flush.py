"""Django's ``flush``, which on SQLite opens the ledger's guards for its own transaction.

Money and history are insert-only: the database refuses to update or delete them (migration
0040_insert_only_history). PostgreSQL's flush is a TRUNCATE, which fires no row trigger; SQLite's
deletes every row, which the guards would refuse. There they stand aside while
``ledger_guards_off`` holds a row, and this command writes one in the transaction that empties
the database and removes it before that commits (a flush that fails leaves nothing behind). It
is what the tests' teardown calls (TransactionTestCase), and what an operator emptying a
database means: every row goes, so no money is left to guard.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections, transaction

DOOR = "ledger_guards_off"  # made by migration 0040 on SQLite


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        database = options["database"]
        connection = connections[database]
        if connection.vendor != "sqlite" or DOOR not in connection.introspection.table_names():
            super().handle(**options)
            return
        if options["interactive"]:  # asked before the transaction, which holds the database
            confirm = input(
                f"This deletes every row of every table of {connection.settings_dict['NAME']},"
                " money and history included. Type 'yes' to continue, or 'no' to cancel: "
            )
            if confirm != "yes":
                self.stdout.write("Flush cancelled.")
                return
        with transaction.atomic(using=database), connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {DOOR} (why) VALUES ('flush')")
            super().handle(**{**options, "interactive": False})
            cursor.execute(f"DELETE FROM {DOOR}")
