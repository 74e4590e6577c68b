"""Generated games for the benchmarks: a long Ce Deng session, Jie Long hands."""

from __future__ import annotations

import random
from typing import Any

import scoring
from scoring.tiles import Deck, pip_totals

PLAYERS = ["Anna", "Bob", "Celine", "Dominic"]
JIE_LONG_PIPS = (2, 12, 34, 18)


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


def jie_long_hand(names: list[str], number: int) -> dict[str, Any]:
    """Hand ``number`` of a Jie Long table seated ``names``: the same pips, one seat on a hand."""
    pips = JIE_LONG_PIPS[number % 4 :] + JIE_LONG_PIPS[: number % 4]
    return {
        "first": names[0],
        "direction": "ccw",
        "results": {n: {"pips": p} for n, p in zip(names, pips, strict=True)},
    }
