"""Import tables from a ledger_export JSON file; all or nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from ledger.tables.backup import import_tables, unknown_owners


class Command(BaseCommand):
    help = "Import tables and tournaments from a JSON file made by ledger_export (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        try:
            document = json.loads(file.read_text(encoding="utf-8"))
            tables = import_tables(document)
        except (
            OSError,
            ValueError,
            KeyError,
            TypeError,
            DatabaseError,
        ) as error:  # BackupError too
            raise CommandError(f"nothing imported: {error}") from error
        events = len(document.get("events", []))
        self.stdout.write(
            f"imported {len(tables)} tables" + (f" and {events} events" if events else "")
        )
        if unknown := unknown_owners(document):
            names = ", ".join(unknown)
            self.stdout.write(f"owners not found here (their tables have no owner): {names}")
