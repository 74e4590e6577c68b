"""Benchmark the web app in-process: hand save and summary of a 500-hand session, page weight.

Runs against a throwaway SQLite file (WAL, as the embedded setup), never the real database.
"""

from __future__ import annotations

import gzip
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from ledger.management.commands.bench_scoring import PLAYERS, ce_deng_document
from ledger.tables import services

PLAIN_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


def _times(runs: int, request: Any) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code in (200, 302), response.status_code
    return times


def _report(label: str, times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[-1]
    return (
        f"{label}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms ({len(times)} runs)"
    )


def _form(hand: dict[str, Any], number: int) -> dict[str, str]:
    post = {"number": str(number), "action": "save", "device": "bench"}
    post["first"], post["direction"] = hand.get("first", ""), hand.get("direction", "")
    for i, name in enumerate(PLAYERS):
        result = hand["results"][name]
        post[f"pips-{i}"] = str(result["pips"])
        if result.get("specials"):
            post[f"specials-{i}"] = result["specials"][0]
    return post


class Command(BaseCommand):
    help = "Median and p95 server time of a hand save and a 500-hand summary; page weight."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=500)
        parser.add_argument("--runs", type=int, default=50)

    def handle(self, *args: Any, hands: int, runs: int, **options: Any) -> None:
        with tempfile.TemporaryDirectory() as folder:
            connection.settings_dict["TEST"]["NAME"] = str(Path(folder) / "bench.sqlite3")
            old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
            try:
                # Not setup_test_environment(): it instruments template rendering and would
                # measure that instead of the pages.
                with override_settings(
                    STORAGES=PLAIN_STATIC, DEBUG=False, ALLOWED_HOSTS=["testserver"]
                ):
                    self._run(hands, runs)
            finally:
                connection.creation.destroy_test_db(old_name, verbosity=0)

    def _run(self, hands: int, runs: int) -> None:
        document = ce_deng_document(hands + runs, seed=7)
        # Record every hand as it happened: who led and which way, as the table page does.
        import scoring

        played = scoring.score(document)["hands"]
        for hand, result in zip(document["hands"], played, strict=True):
            hand["first"], hand["direction"] = result["first"], result["direction"]
        session = services.session_create(
            game="ce-deng", options=document["options"], seating=PLAYERS, first="Anna"
        )
        for number, hand in enumerate(document["hands"][:hands], start=1):
            services.hand_record(session=session, number=number, data=hand)
        client = Client()
        table = reverse("table", args=[session.token])
        summary = reverse("summary", args=[session.token])
        self.stdout.write(_report(f"summary of a {hands}-hand session",
                                  _times(runs, lambda: client.get(summary))))  # fmt: skip
        fresh = [
            (number, hand)
            for number, hand in enumerate(document["hands"][hands:], start=hands + 1)
            if "results" in hand
        ]
        saves = iter(fresh)

        def save() -> Any:
            number, hand = next(saves)
            return client.post(table, _form(hand, number), HTTP_HX_REQUEST="true")

        self.stdout.write(_report(f"hand save (htmx) on a {hands}-hand session",
                                  _times(len(fresh), save)))  # fmt: skip
        self.stdout.write(self._page_weight(client, table))

    def _page_weight(self, client: Client, table: str) -> str:
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
