"""Benchmark a group's pages: 200 tables of 50 hands (ledger/bench/groups.py).

.venv/bin/python manage.py bench_groups [--tables 200] [--hands 50] [--runs 20]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import groups as bench


class Command(BaseCommand):
    help = "Time a group's page, balances and statistics with 200 tables x 50 hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=200)
        parser.add_argument("--hands", type=int, default=50)
        parser.add_argument("--runs", type=int, default=20)

    def handle(self, *args: Any, tables: int, hands: int, runs: int, **_: Any) -> None:
        for line in bench.run(tables=tables, hands=hands, runs=runs):
            self.stdout.write(line)
