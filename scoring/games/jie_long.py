"""Jie Long (接龙): discarded pips, every pair settles the difference."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.games.base import Game, Outcome, Table
from scoring.model import Special
from scoring.settlement import pairwise
from scoring.text import N_


class JieLong(Game):
    key = "jie-long"
    title = "Jie Long"
    label = N_("Jie Long 接龙")
    player_counts = (2, 3, 4)

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        payments = pairwise(scores, table.order, table.options.stake)
        return Outcome(scores, self.rank(scores, table.order), payments)
