"""Benchmark the scoring engine through its public API: a long generated session of the game
with the most specials and hand events (``documents.richest_game``).

Scores a ``hands``-hand session as a JSON document in and out and prints hands per second,
then times a 1,000-hand session recomputed from scratch: from the document, from the parsed
session with every hand checked as a whole (the API's score, an import), and as a page
recomputes stored hands (checked when they were saved), beside a ceiling measured in the same
run (adding up the scored hands).
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
    scored = scoring.score_session(parsed)
    # The ceiling, in the same run: one bare pass over the same hands' results (adding them up).
    ceiling = statistics.median(
        milliseconds(max(runs, 20), partial(scoring.totals, parsed.seating, scored.hands))
    )
    yield f"ceiling: adding up the 1,000 scored hands (scoring.totals): median {ceiling:.2f} ms"
    for label, call in (
        ("JSON document in and out (scoring.score)", partial(scoring.score, small)),
        ("parsed, every hand checked as a whole", partial(scoring.score_session, parsed)),
        (
            "parsed, as a page recomputes stored hands (new=())",
            partial(scoring.score_session, parsed, new=()),
        ),
    ):
        times = milliseconds(max(runs, 20), call)
        median = statistics.median(times)
        yield (
            f"1,000-hand session recomputed from scratch, {label}: "
            f"median {median:.1f} ms, best {min(times):.1f} ms "
            f"({median / ceiling:.0f}x the ceiling)"
        )
