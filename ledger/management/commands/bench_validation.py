"""Benchmark the whole-hand check: the slowest hands it can find (ledger/bench/validation.py).

.venv/bin/python manage.py bench_validation [--seconds 20] [--runs 3] [--seed 1]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import validation as bench


class Command(BaseCommand):
    help = (
        "Search for the hands the whole-hand check takes longest on, per game and table size, "
        "and print the worst and the median beside the same hands scored again with the "
        "check's answers remembered."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, seconds: float, runs: int, seed: int, **_: Any) -> None:
        for line in bench.run(seconds=seconds, runs=runs, seed=seed):
            self.stdout.write(line)
