# A frozen copy of scoring/games/kkoribuchigi.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Kko-li-but-i-gi (꼬리붙이기, Korean "tails", seed 001): the winner collects chips."""

from __future__ import annotations

from collections.abc import Mapping

from ..games.base import Game, Outcome, Table
from ..model import ChipPayment, Payment, Special
from ..options import ENDS
from ..text import N_
from ..tiles import Deck

OVER = 30  # under ``payment: highest``, a loser above this many points pays too


class Kkoribuchigi(Game):
    key = "kkoribuchigi"
    title = "Kko-li-but-i-gi"
    label = N_("Kko-li-but-i-gi 꼬리붙이기")
    player_counts = (2, 3, 4)
    option_names = frozenset({"chip", "payment", "next_first", *ENDS})
    payments = (ChipPayment.HIGHEST, ChipPayment.EACH)

    def deck(self, players: int) -> Deck:
        return Deck.CHINESE_32 if players == 4 else Deck.KKORI_24

    def tiles_each(self, players: int) -> int:
        return 12 if players == 2 else 8

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        ranking = self.rank(scores, table.order)
        winner, *losers = ranking
        chip = table.options.chip
        if table.options.payment is ChipPayment.EACH:
            payers = [(name, "each") for name in losers]
        else:
            last = losers[-1]
            payers = [
                (name, "last" if name == last else f"over_{OVER}")
                for name in losers
                if name == last or scores[name] > OVER
            ]
        payments = tuple(Payment(name, winner, chip, 1, reason) for name, reason in payers)
        return Outcome(scores, ranking, payments)
