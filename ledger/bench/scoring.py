"""Benchmark the scoring engine through its public API: a long generated session of the game
with the most specials and hand events (``documents.richest_game``).

Scores a ``hands``-hand session as a JSON document in and out and prints hands per second,
then times a 1,000-hand session recomputed from scratch, from the document and from the parsed
session (what a page recomputes).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from functools import partial

import scoring
from ledger.bench.documents import richest_document, richest_game
from ledger.bench.timing import milliseconds


def run(*, hands: int, runs: int) -> Iterator[str]:
    big = richest_document(hands)
    best = min(milliseconds(runs, partial(scoring.score, big)))
    yield (
        f"{hands:,}-hand {richest_game().title} session, JSON document in and out (scoring.score): "
        f"best {best:.0f} ms of {runs}, {hands / (best / 1000):,.0f} hands/s"
    )
    small = richest_document(1_000)
    parsed = scoring.parse_session(small)
    for label, call in (
        ("JSON document in and out (scoring.score)", partial(scoring.score, small)),
        ("parsed session (scoring.score_session)", partial(scoring.score_session, parsed)),
    ):
        times = milliseconds(max(runs, 20), call)
        yield (
            f"1,000-hand session recomputed from scratch, {label}: "
            f"median {statistics.median(times):.1f} ms, best {min(times):.1f} ms"
        )
