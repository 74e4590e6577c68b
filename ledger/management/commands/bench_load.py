"""Load benchmark: a tournament hall against gunicorn and PostgreSQL (ledger/bench/load.py).

.venv/bin/python manage.py bench_load [--tables 600] [--seconds 120]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import load as bench


class Command(BaseCommand):
    help = "Simulate a tournament hall against gunicorn + PostgreSQL; print the figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=600)
        parser.add_argument("--seconds", type=float, default=bench.HAND_EVERY)
        parser.add_argument("--port", type=int, default=8799)
        parser.add_argument("--workers", type=int, default=2)

    def handle(
        self, *args: Any, tables: int, seconds: float, port: int, workers: int, **options: Any
    ) -> None:
        for line in bench.run(tables=tables, seconds=seconds, port=port, workers=workers):
            self.stdout.write(line)
