"""Check every table's stored results and kept tally, and every group's balances, against the
engine's scoring of the hands: run after an upgrade or a restore (docs/operations.md)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.groups import verify as group_verify
from ledger.tables import verify as table_verify
from ledger.tables.verify import Checked


class Command(BaseCommand):
    help = (
        "Score every table again from its hands and compare with its stored result rows and"
        " kept tally, and every group's balances with its tables and payments; print each"
        " difference and a summary. Exits 1 on any difference, 0 when all agree."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch",
            type=int,
            default=table_verify.BATCH,
            help="tables read at a time (default %(default)s)",
        )

    def handle(self, *args: Any, batch: int, **options: Any) -> None:
        differences = tables = hands = groups = 0
        engine: dict[int, Checked] = {}
        for checked in table_verify.tables(batch=max(batch, 1)):
            tables, hands = tables + 1, hands + checked.hands
            differences += self._say(checked.differences)
            if checked.table.group_id is not None:  # the group's balances need it, below
                engine[checked.table.pk] = checked
        for _, said in group_verify.groups(engine):
            groups += 1
            differences += self._say(said)
        summary = (
            f"checked {_count(tables, 'table')} ({_count(hands, 'hand')}) and "
            f"{_count(groups, 'group')}"
        )
        if differences:
            self.stdout.write(f"{_count(differences, 'difference')}: {summary}.")
            sys.exit(1)
        self.stdout.write(f"All agree: {summary}.")

    def _say(self, differences: list[str]) -> int:
        for difference in differences:
            self.stdout.write(difference)
        return len(differences)


def _count(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"
