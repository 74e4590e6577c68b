"""Benchmark the web app in-process: hand save and summary of a 500-hand session, page weight;
and what a table's page, its live part and a save cost at 10 hands and at 1,000.

Builds a table of ``hands`` hands of the game with the most specials and hand events
(``documents.richest_game``) on a throwaway SQLite file (never the real database),
then times requests through Django's full middleware stack (no network).
"""

from __future__ import annotations

import gzip
import statistics
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse

import scoring
from ledger.bench.documents import EVENT_GAME, PLAYERS, event_hand, richest_document
from ledger.bench.inprocess import as_served, throwaway_database
from ledger.bench.timing import median_p95, response_times
from ledger.models import TableSession
from ledger.tables import services


def run(*, hands: int, runs: int) -> Iterator[str]:
    with throwaway_database(), as_served():
        yield from _measure(hands, runs)
        yield from _growth(runs)


SMALL, LARGE = 10, 1000  # hands at the two tables of the growth measurement (issue 21, item 7)


def _growth(runs: int) -> Iterator[str]:
    """The table page, its live part after a change (rendered for the first phone, then kept
    for the others) and a hand save at a 10-hand and a 1,000-hand table, alternately with the
    bare view /ping/ (the ceiling), in the same run: the larger table's medians as ratios to
    the smaller's."""
    client = Client()
    ping = reverse("ping")
    tables = {size: _played(size + runs, size) for size in (SMALL, LARGE)}
    medians: dict[tuple[str, int], float] = {}
    ceilings = []
    for size, (session, hands) in tables.items():
        table = reverse("table", args=[session.token])
        live = reverse("live", args=[session.token]) + "?rev=0"  # as after a change
        summary = reverse("summary", args=[session.token])
        saves = iter(enumerate(hands[size:], start=size + 1))

        def save(table: str = table, saves: Iterator[tuple[int, Any]] = saves) -> Any:
            number, hand = next(saves)
            return client.post(table, _form(hand, number), HTTP_HX_REQUEST="true")

        def rendered(live: str = live) -> list[float]:
            times = []
            for _ in range(runs):
                cache.clear()  # as after a change: no phone has fetched it yet
                times += response_times(1, lambda: client.get(live))
            return times

        measures: list[tuple[str, Callable[[], list[float]]]] = [
            ("table page", partial(response_times, runs, partial(client.get, table))),
            ("live part, rendered", rendered),
            ("live part, kept", partial(response_times, runs, partial(client.get, live))),
            ("hand save", partial(response_times, runs, save)),
            ("summary", partial(response_times, runs, partial(client.get, summary))),
        ]
        for what, measure in measures:
            ceilings += response_times(runs, lambda: client.get(ping))
            medians[what, size] = statistics.median(measure())
    ceiling = statistics.median(ceilings)
    yield f"ceiling, the bare view /ping/: median {ceiling:.2f} ms ({len(ceilings)} runs)"
    for what, _ in measures:
        small, large = medians[what, SMALL], medians[what, LARGE]
        target = "it draws every hand" if what == "summary" else "target: at most 1.5x"
        yield (
            f"{what}: {small:.1f} ms at {SMALL} hands ({small / ceiling:.0f}x the bare view), "
            f"{large:.1f} ms at {LARGE:,} ({large / ceiling:.0f}x): {large / small:.2f}x "
            f"({target})"
        )


def _played(hands: int, recorded: int) -> tuple[TableSession, list[dict[str, Any]]]:
    """A table of the tournament game with ``hands`` hands, the first ``recorded`` of them
    recorded through the services; all of them, as the table page sends them (who led and
    which way written in)."""
    session = services.session_create(
        game=EVENT_GAME, options={}, seating=PLAYERS, first=PLAYERS[0]
    )
    played = [event_hand(PLAYERS, number) for number in range(1, hands + 1)]
    for number, hand in enumerate(played[:recorded], start=1):
        services.hand_record(session=session, number=number, data=hand)
    return session, played


def _measure(hands: int, runs: int) -> Iterator[str]:
    document = richest_document(hands + runs, seed=7)
    # Record every hand as it happened: who led and which way, as the table page does.
    played = scoring.score(document)["hands"]
    for hand, result in zip(document["hands"], played, strict=True):
        hand["first"], hand["direction"] = result["first"], result["direction"]
    session = services.session_create(
        game=document["game"],
        options=document["options"],
        seating=PLAYERS,
        first=document["first"],
    )
    for number, hand in enumerate(document["hands"][:hands], start=1):
        services.hand_record(session=session, number=number, data=hand)
    client = Client()
    table = reverse("table", args=[session.token])
    summary = reverse("summary", args=[session.token])
    yield median_p95(f"summary of a {hands}-hand session",
                     response_times(runs, lambda: client.get(summary)))  # fmt: skip
    fresh = [
        (number, hand)
        for number, hand in enumerate(document["hands"][hands:], start=hands + 1)
        if "results" in hand
    ]
    saves = iter(fresh)

    def save() -> HttpResponseBase:
        number, hand = next(saves)
        return client.post(table, _form(hand, number), HTTP_HX_REQUEST="true")

    yield median_p95(f"hand save (htmx) on a {hands}-hand session",
                     response_times(len(fresh), save))  # fmt: skip
    yield _page_weight(client, table)


def _form(hand: dict[str, Any], number: int) -> dict[str, str]:
    post = {"number": str(number), "action": "save"}
    post["first"], post["direction"] = hand.get("first", ""), hand.get("direction", "")
    for i, name in enumerate(PLAYERS):
        result = hand["results"][name]
        post[f"pips-{i}"] = str(result["pips"])
        if result.get("specials"):
            post[f"specials-{i}"] = result["specials"][0]
    return post


def _page_weight(client: Client, table: str) -> str:
    page = client.get(table).content
    assets = [
        Path(str(finders.find(name)))
        for name in ("ledger/ledger.css", "ledger/ledger.js", "django_htmx/htmx-2.min.js")
    ]
    parts = [page] + [path.read_bytes() for path in assets]
    raw = sum(len(part) for part in parts)
    compressed = sum(len(gzip.compress(part, 9)) for part in parts)
    return (
        f"table page first load (HTML, CSS, JS, htmx): {raw / 1024:.1f} KB, "
        f"{compressed / 1024:.1f} KB gzip-compressed (QR code SVG not counted)"
    )
