# A frozen copy of scoring/games/jie_long.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Jie Long (接龙): discarded pips, every pair settles the difference."""

from __future__ import annotations

from collections.abc import Mapping

from ..games.base import Game, Outcome, Table
from ..model import ChipPayment, Special
from ..options import ENDS
from ..settlement import pairwise
from ..text import N_


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
