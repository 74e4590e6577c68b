"""Export tables (all, or those named by their link tokens) as JSON on stdout."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.models import Event, Group, TableSession
from ledger.tables.backup import export_tables


class Command(BaseCommand):
    help = (
        "Export tables and tournaments to JSON (stdout): everything, or --table=TOKEN"
        " (repeatable; with the '=', a token that begins with '-' is read as a token)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", action="append", default=[], metavar="TOKEN")

    def handle(self, *args: Any, table: list[str], **options: Any) -> None:
        tables = TableSession.objects.order_by("pk").select_related("owner").with_seats()
        if table:
            tables = tables.filter(token__in=table)
            if len(tables) != len(set(table)):
                raise CommandError("no table has one of these tokens")
        # A whole backup keeps the tournaments and groups too; tables named one by one come on
        # their own.
        events = (
            Event.objects.none() if table else Event.objects.order_by("pk").select_related("owner")
        )
        groups = Group.objects.none() if table else Group.objects.order_by("pk")
        document = export_tables(tables.select_related("round__event", "group"), events, groups)
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
