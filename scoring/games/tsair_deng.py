"""Tsair Deng (slant nail, seed 002): a pass doubles everybody else's score."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.games.base import Game, Outcome, Table
from scoring.model import ChipPayment, Special
from scoring.options import ENDS
from scoring.settlement import pairwise
from scoring.text import N_


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
