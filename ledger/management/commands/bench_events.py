"""Benchmark tournaments: seating 600 players, standings of 150 tables with 20 hands each.

    .venv/bin/python manage.py bench_events [--players 600] [--tables 150] [--hands 20]

Seating is pure Python (ledger.events.seating), timed for rounds 1 to 3 under "mixing" (round 1 is
the seeded draw; later rounds avoid repeat table-mates). Standings are read from a throwaway
SQLite database (never yours): an event of ``--tables`` Jie Long tables of 4 with ``--hands``
hands each, timed with the number of queries.
"""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from ledger.events import seating, selectors
from ledger.events import services as event_services
from ledger.management.commands.bench_web import PLAIN_STATIC, _report, _times
from ledger.models import Event, Hand, HandChange, TableSession
from ledger.tables import services

PIPS = [2, 12, 34, 18]


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
        self._seating(players)
        with tempfile.TemporaryDirectory() as folder:
            connection.settings_dict["TEST"]["NAME"] = str(Path(folder) / "bench.sqlite3")
            old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
            try:
                self._standings(tables, hands, runs)
            finally:
                connection.creation.destroy_test_db(old_name, verbosity=0)

    def _seating(self, count: int) -> None:
        names = [f"Player {i:04}" for i in range(count)]
        met: Counter[frozenset[str]] = Counter()
        led: Counter[str] = Counter()
        for number in (1, 2, 3):
            start = time.perf_counter()
            plan = seating.seat_round(
                names, allowed=(2, 3, 4), method=seating.Method.MIXING, seed="bench",
                round_number=number, met=met, led=led,
            )  # fmt: skip
            took = (time.perf_counter() - start) * 1000
            self.stdout.write(
                f"seating {count} players, round {number}: {took:.1f} ms, "
                f"{len(plan.tables)} tables, {plan.repeats(met)} repeated pairs"
            )
            met.update(seating.met_counts(plan.tables))
            led.update(table[0] for table in plan.tables)

    def _standings(self, tables: int, hands: int, runs: int) -> None:
        event = event_services.event_create(name="Bench", game="jie-long", options={}, rounds=1)
        for i in range(tables * 4):
            event_services.entry_add(event=event, name=f"Player {i:04}", organiser=True)
        played = event_services.round_begin(round=event_services.round_seat(event=event))
        seated = list(TableSession.objects.filter(round=played).prefetch_related("seats__player"))
        # Straight into the tables: 3,000 saves through the services would only take longer.
        Hand.objects.bulk_create(
            Hand(session=table, number=number, data=_hand(table.seating, number))
            for table in seated
            for number in range(1, hands + 1)
        )
        HandChange.objects.bulk_create(
            HandChange(hand=hand, kind=HandChange.Kind.RECORD, after=hand.data)
            for hand in Hand.objects.all()
        )
        for table in seated:
            services.table_recount(session=table)  # as the services do on every save
        self._time(f"standings of {tables} tables x {hands} hands", event, runs)
        # As after an import or an admin edit: no table's tally is current.
        TableSession.objects.filter(round=played).update(tally={})
        self._time("the same, every table counted from its hands", event, runs)
        for table in seated:
            services.table_recount(session=table)

        client = Client()
        page = reverse("event_results", args=[event.read_token])
        gc.freeze()  # as gunicorn does before its workers fork (deploy/gunicorn.conf.py)
        with override_settings(STORAGES=PLAIN_STATIC, DEBUG=False, ALLOWED_HOSTS=["testserver"]):
            client.get(page)
            self.stdout.write(_report("results page", _times(runs, lambda: client.get(page))))
            table, after = seated[0], []
            for number in range(hands + 1, hands + 1 + runs):
                data = _hand(table.seating, number)
                services.hand_record(session=table, number=number, data=data)
                after += _times(1, lambda: client.get(page))
            self.stdout.write(_report("results page, a hand recorded since", after))

    def _time(self, what: str, event: Event, runs: int) -> None:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                result = selectors.standings(event)
            times.append((time.perf_counter() - start) * 1000)
        self.stdout.write(
            f"{what} ({len(result.rows)} players): median {statistics.median(times):.1f} ms, "
            f"{len(queries)} queries ({runs} runs)"
        )


def _hand(names: list[str], number: int) -> dict[str, Any]:
    pips = PIPS[number % 4 :] + PIPS[: number % 4]
    return {
        "first": names[0],
        "direction": "ccw",
        "results": {n: {"pips": p} for n, p in zip(names, pips, strict=True)},
    }
