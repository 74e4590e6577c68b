"""A toy game, registered for a test and gone after it: what a new game module would be."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from scoring import Game, Payment, Special, register, unregister
from scoring.games.base import Outcome, Table


class Toy(Game):
    """Jie Long's deal; the lowest score, or a pass, collects one stake from each other."""

    key = "toy"
    title = "Toy"
    label = "Toy 玩具"
    player_counts = (2, 3)
    specials = frozenset({Special.PASS})

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        ranking = self.rank(scores, table.order)
        stake = table.options.stake
        payments = tuple(Payment(name, ranking[0], stake, 1, "toy") for name in ranking[1:])
        return Outcome(scores, ranking, payments)


@pytest.fixture
def toy() -> Iterator[Toy]:
    game = register(Toy())
    try:
        yield game
    finally:
        unregister(game.key)
