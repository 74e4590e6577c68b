"""Benchmark the web app in-process on a throwaway database (ledger/bench/web.py).

.venv/bin/python manage.py bench_web [--hands 500] [--runs 50]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import web as bench


class Command(BaseCommand):
    help = (
        "Median and p95 server time of a hand save and a 500-hand summary; page weight; the "
        "table page, its live part and a save at 10 and at 1,000 hands, beside the bare view."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=500)
        parser.add_argument("--runs", type=int, default=50)

    def handle(self, *args: Any, hands: int, runs: int, **options: Any) -> None:
        for line in bench.run(hands=hands, runs=runs):
            self.stdout.write(line)
