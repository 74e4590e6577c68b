"""Benchmark the scoring engine through its public API: a long generated Ce Deng session."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import scoring
from scoring.tiles import Deck, pip_totals

PLAYERS = ["Anna", "Bob", "Celine", "Dominic"]


def ce_deng_document(hands: int, seed: int = 1) -> dict[str, Any]:
    """A valid Ce Deng session of ``hands`` hands: passes, tails, redeals and blocked hands.

    Lead and direction are left to the rules; the generator follows them hand by hand so
    that a tail-eight never lands on the player who leads.
    """
    rng = random.Random(seed)
    up_to_seven = sorted(pip_totals(Deck.CHINESE_32, 1, 7))
    exactly_eight = sorted(pip_totals(Deck.CHINESE_32, 8, 8))
    first, direction = "Anna", "ccw"
    document_hands: list[dict[str, Any]] = []
    for _ in range(hands):
        roll = rng.random()
        if roll < 0.02:
            document_hands.append({"redeal": rng.choice(PLAYERS)})
            continue
        results: dict[str, Any] = {name: {"pips": rng.choice(up_to_seven)} for name in PLAYERS}
        if roll < 0.12:
            results[rng.choice(PLAYERS)] = {"pips": 0, "specials": ["pass"]}
        elif roll < 0.22:
            tail = rng.choice([name for name in PLAYERS if name != first])
            results[tail] = {"pips": rng.choice(exactly_eight), "specials": ["tail_eight"]}
        hand = {"results": results, "blocked": 0.22 <= roll < 0.27}
        document_hands.append(hand)
        played = scoring.score(
            {"game": "ce-deng", "seating": PLAYERS, "first": first,
             "hands": [{**hand, "direction": direction}]}
        )["hands"][0]  # fmt: skip
        first, direction = played["next_first"], played["next_direction"]
    return {
        "game": "ce-deng",
        "options": {"stake": "0.50"},
        "seating": PLAYERS,
        "first": "Anna",
        "hands": document_hands,
    }


def _best_of(runs: int, function: Any, argument: Any) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - start)
    return times


class Command(BaseCommand):
    help = "Score a generated Ce Deng session through scoring's public API and print hands/s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=10_000)
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args: Any, hands: int, runs: int, **options: Any) -> None:
        big = ce_deng_document(hands)
        times = _best_of(runs, scoring.score, big)
        best = min(times)
        self.stdout.write(
            f"{hands:,}-hand Ce Deng session, JSON document in and out (scoring.score): "
            f"best {best * 1000:.0f} ms of {runs}, {hands / best:,.0f} hands/s"
        )
        small = ce_deng_document(1_000)
        parsed = scoring.parse_session(small)
        for label, function, argument in (
            ("JSON document in and out (scoring.score)", scoring.score, small),
            ("parsed session (scoring.score_session)", scoring.score_session, parsed),
        ):
            times = _best_of(max(runs, 20), function, argument)
            self.stdout.write(
                f"1,000-hand session recomputed from scratch, {label}: "
                f"median {statistics.median(times) * 1000:.1f} ms, "
                f"best {min(times) * 1000:.1f} ms"
            )
