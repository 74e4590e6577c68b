"""Jie Long (接龙): discarded pips, every pair settles the difference."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.games.base import Game, Outcome, Table
from scoring.model import ChipPayment, Special
from scoring.options import ENDS
from scoring.settlement import pairwise
from scoring.text import N_


class JieLong(Game):
    key = "jie-long"
    title = "Jie Long"
    label = N_("Jie Long 接龙")
    player_counts = (2, 3, 4)
    option_names = frozenset({"stake", "payment", "chip", "ties", "next_first", *ENDS})
    payments = (ChipPayment.PAIRWISE, ChipPayment.CHIPS)

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        ranking = self.rank(scores, self.tie_order(table))
        if self.payment(table.options) is ChipPayment.CHIPS:
            return Outcome(scores, ranking, self.in_chips(ranking, table))
        payments = pairwise(scores, table.order, table.options.stake)
        return Outcome(scores, ranking, payments)
