"""Check everything that holds money: every table's result rows and kept tally against the
engine's scoring of its hands, its reversals and its history; every group's payments and their
voids, and its balances against its tables and payments. Run after an upgrade or a restore
(docs/operations.md)."""

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
        " kept tally; check its reversals and the history of its hands and ends; check every"
        " group's payments and their voids, and its balances against its tables' rows and"
        " hands and its payments; print each difference and a summary. Exits 1 on any"
        " difference, 0 when all agree."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch",
            type=int,
            default=table_verify.BATCH,
            help="tables read at a time (default %(default)s)",
        )

    def handle(self, *args: Any, batch: int, **options: Any) -> None:
        differences = tables = hands = changes = groups = payments = 0
        engine: dict[int, Checked] = {}
        for checked in table_verify.tables(batch=max(batch, 1)):
            tables, hands = tables + 1, hands + checked.hands
            changes += checked.changes
            differences += self._say(checked.differences)
            if checked.table.group_id is not None:  # the group's balances need it, below
                engine[checked.table.pk] = checked
        for group in group_verify.groups(engine):
            groups, payments = groups + 1, payments + group.payments
            differences += self._say(group.differences)
        differences += self._say(group_verify.strays())
        summary = (
            f"checked {_count(tables, 'table')} ({_count(hands, 'hand')}, "
            f"{_count(changes, 'change')}) and {_count(groups, 'group')} "
            f"({_count(payments, 'payment')})"
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
