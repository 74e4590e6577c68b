"""Benchmark the web app in-process: hand save and summary of a 500-hand session, page weight.

Builds a table of ``hands`` hands of the game with the most specials and hand events
(``documents.richest_game``) on a throwaway SQLite file (never the real database),
then times requests through Django's full middleware stack (no network).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse

import scoring
from ledger.bench.documents import PLAYERS, richest_document
from ledger.bench.inprocess import as_served, throwaway_database
from ledger.bench.timing import median_p95, response_times
from ledger.tables import services


def run(*, hands: int, runs: int) -> Iterator[str]:
    with throwaway_database(), as_served():
        yield from _measure(hands, runs)


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
    post = {"number": str(number), "action": "save", "device": "bench"}
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
