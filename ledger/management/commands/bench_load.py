"""Load benchmark: a tournament hall on streams and on polling (ledger/bench/load.py).

.venv/bin/python manage.py bench_load [--halls 600,1250,2500,5000] [--seconds 60]
    [--kill-stream-worker] [--restart-postgres COMMAND]
"""

from __future__ import annotations

from argparse import ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.bench import load as bench


def _halls(text: str) -> list[int]:
    try:
        halls = sorted(int(part) for part in text.split(","))
    except ValueError:
        halls = []
    if not halls or halls[0] < 1:
        raise ArgumentTypeError(f"table counts of 1 or more, separated by commas, not {text!r}")
    return halls


class Command(BaseCommand):
    help = "Simulate a tournament hall on streams and on polling; print the figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--halls", type=_halls, default=[600, 1250, 2500, 5000])
        parser.add_argument("--seconds", type=float, default=60.0, help="after the ramp")
        parser.add_argument("--modes", default="stream,poll")
        parser.add_argument("--port", type=int, default=8799)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--streams", type=int, default=2)
        parser.add_argument(
            "--kill-stream-worker",
            action="store_true",
            help="then run the largest hall held on streams again, a streams worker killed in it",
        )
        parser.add_argument(
            "--restart-postgres",
            metavar="COMMAND",
            default="",
            help="...and again, with COMMAND (which restarts PostgreSQL) run in its middle",
        )

    def handle(
        self,
        *args: Any,
        modes: str,
        kill_stream_worker: bool,
        restart_postgres: str,
        **options: Any,
    ) -> None:
        chosen = modes.split(",")
        if not set(chosen) <= set(bench.MODES):
            raise CommandError(f"--modes takes {' and '.join(bench.MODES)}, not {modes!r}")
        faults: list[bench.Fault] = [bench.kill_a_stream_worker] if kill_stream_worker else []
        if restart_postgres:
            faults.append(bench.restart_postgres(restart_postgres))
        if faults and "stream" not in chosen:
            raise CommandError("faults are done to a hall on streams: add stream to --modes")
        del options["verbosity"], options["settings"], options["pythonpath"], options["traceback"]
        del options["no_color"], options["force_color"], options["skip_checks"]
        for line in bench.run(modes=chosen, faults=tuple(faults), **options):
            self.stdout.write(line)
