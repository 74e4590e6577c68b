"""Benchmark the scoring engine through its public API (ledger/bench/scoring.py).

.venv/bin/python manage.py bench_scoring [--hands 10000] [--runs 5]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import scoring as bench
from ledger.bench.documents import richest_game


class Command(BaseCommand):
    help = (
        f"Score a generated {richest_game().title} session through scoring's public API "
        "and print hands/s."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=10_000)
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args: Any, hands: int, runs: int, **options: Any) -> None:
        for line in bench.run(hands=hands, runs=runs):
            self.stdout.write(line)
