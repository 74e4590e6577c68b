"""Benchmark tournaments: seating and standings (ledger/bench/events.py).

.venv/bin/python manage.py bench_events [--players 600] [--tables 150] [--hands 20]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ledger.bench import events as bench


class Command(BaseCommand):
    help = "Time seating 600 players and the standings of 150 tables x 20 hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=600)
        parser.add_argument("--tables", type=int, default=150)
        parser.add_argument("--hands", type=int, default=20)
        parser.add_argument("--runs", type=int, default=20)

    def handle(
        self, *args: Any, players: int, tables: int, hands: int, runs: int, **_: Any
    ) -> None:
        for line in bench.run(players=players, tables=tables, hands=hands, runs=runs):
            self.stdout.write(line)
