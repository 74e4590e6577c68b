"""Benchmark a group of regulars: its page, balances and statistics with 200 tables of 50 hands.

Built on a throwaway SQLite file (never your database): a group of six players, ``tables``
tables of four of them (a different four each time) with ``hands`` hands each, written as the
services write them (hands, their history, the result rows), and a payment after each table.
Then each read is timed in-process through Django's full middleware stack, beside a ceiling
measured in the same run: the bare view /ping/, by the same client, alternately with the
figure. The number of queries of each is counted at a tenth of the tables too: it must not grow
with tables or hands.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Iterator
from functools import partial

from django.db import connection
from django.http import HttpResponseBase
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.bench.documents import EVENT_GAME
from ledger.bench.inprocess import as_served, store_played, throwaway_database
from ledger.bench.timing import response_times
from ledger.groups import services
from ledger.groups.models import Group
from ledger.models import TableSession

REGULARS = ["Anna", "Bob", "Celine", "Dominic", "Eve", "Feng"]
TARGET_MS = 200  # issue 20: a group's page, balances and statistics in at most this


def run(*, tables: int, hands: int, runs: int) -> Iterator[str]:
    with throwaway_database():
        group = services.group_create(name="Bench", game=EVENT_GAME, options={"stake": "1"})
        few = max(1, tables // 10)
        _play(group, few, hands)
        with as_served():
            counted = {label: _queries(url) for label, url in _pages(group)}
        _play(group, tables - few, hands)
        yield f"a group of {len(REGULARS)} players, {tables} tables x {hands} hands"
        gc.freeze()  # as gunicorn does before its workers fork (deploy/gunicorn.conf.py)
        with as_served():
            yield from _measure(group, runs, counted, few)


def _play(group: Group, tables: int, hands: int) -> None:
    """``tables`` more tables of the group, each of four regulars, ``hands`` hands each."""
    start = TableSession.objects.filter(group=group).count()
    started = []
    for i in range(start, start + tables):
        seating = [REGULARS[(i + k) % len(REGULARS)] for k in range(4)]
        started.append(services.table_start(group=group, seating=seating, first=seating[0]))
    store_played(started, hands)
    for i in range(start, start + tables):  # and a payment after each evening
        payer, payee = REGULARS[i % len(REGULARS)], REGULARS[(i + 1) % len(REGULARS)]
        services.payment_record(group=group, payer=payer, payee=payee, amount="5")


def _pages(group: Group) -> list[tuple[str, str]]:
    anna = group.players.get(name="Anna")
    return [
        (
            "group page (tables, balances, settle-up, payments)",
            reverse("group", args=[group.token]),
        ),
        ("statistics page (all time, ratings)", reverse("group_statistics", args=[group.token])),
        ("a player's account", reverse("group_player", args=[group.token, anna.pk])),
        ("API: GET /api/v1/groups/{token}/", f"/api/v1/groups/{group.token}/"),
        ("API: statistics", f"/api/v1/groups/{group.token}/statistics/"),
    ]


def _queries(url: str) -> int:
    """The queries of a request, after one to warm up (the first request of a process also
    looks up what every later one finds in memory)."""
    client = Client()
    client.get(url)
    with CaptureQueriesContext(connection) as seen:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(seen.captured_queries)


def _measure(group: Group, runs: int, counted: dict[str, int], few: int) -> Iterator[str]:
    client = Client()
    ping = reverse("ping")

    def median(call: Callable[[], HttpResponseBase]) -> float:
        return statistics.median(response_times(runs, call))

    for label, url in _pages(group):
        client.get(url)  # warm: the first request compiles templates
        page = partial(client.get, url)
        # The ceiling and the figure alternately, three rounds: runs on a shared machine vary.
        rounds = [(median(partial(client.get, ping)), median(page)) for _ in range(3)]
        ceiling = statistics.median(bare for bare, _ in rounds)
        figure = statistics.median(took for _, took in rounds)
        queries = _queries(url)
        yield (
            f"{label}: median {figure:.1f} ms, {queries} queries ({counted[label]} at {few} "
            f"tables); ceiling, the bare view /ping/: {ceiling:.2f} ms; {figure / ceiling:.0f}x "
            f"the ceiling; target {TARGET_MS} ms: {TARGET_MS / figure:.1f}x headroom"
        )
