"""Benchmark tournaments: seating 600 players, standings of 150 tables with 20 hands each.

Seating is pure Python (ledger.events.seating), timed for rounds 1 to 3 under "mixing" (round 1 is
the seeded draw; later rounds avoid repeat table-mates). Standings are read from a throwaway
SQLite database (never yours): an event of ``tables`` tables of 4 of the game a tournament
defaults to (``DEFAULT_EVENT_GAME``) with ``hands`` hands each, timed with the number of
queries, then the results page in-process.
"""

from __future__ import annotations

import gc
import statistics
from collections import Counter
from collections.abc import Iterator
from functools import partial

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.bench.documents import EVENT_GAME, event_hand
from ledger.bench.inprocess import as_served, store_played, throwaway_database
from ledger.bench.timing import median_p95, response_times, timed
from ledger.events import seating, selectors
from ledger.events import services as event_services
from ledger.models import Event, TableSession
from ledger.tables import services


def run(*, players: int, tables: int, hands: int, runs: int) -> Iterator[str]:
    yield from _seating(players)
    with throwaway_database():
        yield from _standings(tables, hands, runs)


def _seating(count: int) -> Iterator[str]:
    names = [f"Player {i:04}" for i in range(count)]
    met: Counter[frozenset[str]] = Counter()
    led: Counter[str] = Counter()
    for number in (1, 2, 3):
        seat = partial(
            seating.seat_round, names, allowed=(2, 3, 4), method=seating.Method.MIXING,
            seed="bench", round_number=number, met=met, led=led,
        )  # fmt: skip
        took, plan = timed(seat)
        yield (
            f"seating {count} players, round {number}: {took:.1f} ms, "
            f"{len(plan.tables)} tables, {plan.repeats(met)} repeated pairs"
        )
        met.update(seating.met_counts(plan.tables))
        led.update(table[0] for table in plan.tables)


def _standings(tables: int, hands: int, runs: int) -> Iterator[str]:
    event = event_services.event_create(name="Bench", game=EVENT_GAME, options={}, rounds=1)
    for i in range(tables * 4):
        event_services.entry_add(event=event, name=f"Player {i:04}", organiser=True)
    played = event_services.round_begin(round=event_services.round_seat(event=event))
    seated = list(TableSession.objects.filter(round=played).with_seats())
    store_played(seated, hands)
    yield _standings_time(f"standings of {tables} tables x {hands} hands", event, runs)
    # As after an import or an admin edit: no table's tally is current.
    TableSession.objects.filter(round=played).update(tally={})
    yield _standings_time("the same, every table counted from its hands", event, runs)
    for table in seated:
        services.table_recount(session=table)

    client = Client()
    page = reverse("event_results", args=[event.read_token])
    gc.freeze()  # as gunicorn does before its workers fork (deploy/gunicorn.conf.py)
    with as_served():
        client.get(page)
        yield median_p95("results page", response_times(runs, lambda: client.get(page)))
        table, after = seated[0], []
        for number in range(hands + 1, hands + 1 + runs):
            data = event_hand(table.seating, number)
            services.hand_record(session=table, number=number, data=data)
            after += response_times(1, lambda: client.get(page))
        yield median_p95("results page, a hand recorded since", after)


def _standings_time(what: str, event: Event, runs: int) -> str:
    def read() -> tuple[selectors.Standings, int]:
        with CaptureQueriesContext(connection) as queries:
            result = selectors.standings(event)
        return result, len(queries)

    times = []
    for _ in range(runs):
        took, (result, queries) = timed(read)
        times.append(took)
    return (
        f"{what} ({len(result.rows)} players): median {statistics.median(times):.1f} ms, "
        f"{queries} queries ({runs} runs)"
    )
