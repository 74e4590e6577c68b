# A frozen copy of scoring/games/tsair_deng.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Tsair Deng (slant nail, seed 002): a pass doubles everybody else's score."""

from __future__ import annotations

from collections.abc import Mapping

from ..games.base import Game, Outcome, Table
from ..model import ChipPayment, Special
from ..options import ENDS
from ..settlement import pairwise
from ..text import N_


class TsairDeng(Game):
    key = "tsair-deng"
    title = "Tsair Deng"
    label = N_("Tsair Deng")
    player_counts = (2, 3, 4)
    option_names = frozenset({"stake", "payment", "chip", "ties", "next_first", *ENDS})
    payments = (ChipPayment.PAIRWISE, ChipPayment.CHIPS)
    specials = frozenset({Special.PASS})

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        if any(Special.PASS in flags[name] for name in table.order):
            scores = {name: 2 * score for name, score in scores.items()}
        ranking = self.rank(scores, self.tie_order(table))
        if self.payment(table.options) is ChipPayment.CHIPS:
            return Outcome(scores, ranking, self.in_chips(ranking, table))
        payments = pairwise(scores, table.order, table.options.stake)
        return Outcome(scores, ranking, payments)
