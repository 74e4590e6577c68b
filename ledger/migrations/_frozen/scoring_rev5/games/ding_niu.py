# A frozen copy of scoring/games/ding_niu.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Ding Niu (顶牛, bull fight, seed 003): chips by rank, and the SuanZhang creator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby

from ..errors import ScoringError
from ..games.base import Game, Outcome, Table
from ..model import Payment, Special
from ..options import ENDS
from ..text import N_
from ..tiles import Deck
from ..whole_hand import names

CHIPS = (1, 2, 3)  # what 2nd, 3rd and 4th pay the 1st
SUANZHANG_PENALTY = 12


class DingNiu(Game):
    key = "ding-niu"
    title = "Ding Niu"
    label = N_("Ding Niu 顶牛")
    player_counts = (4,)
    option_names = frozenset({"chip", "next_first", *ENDS})
    specials = frozenset({Special.SUANZHANG})

    def deck(self, players: int) -> Deck:
        return Deck.DING_NIU_24

    def tiles_each(self, players: int) -> int:
        return 6

    def rank(self, scores: Mapping[str, int], order: Sequence[str]) -> tuple[str, ...]:
        """Lower score first. The first place among players tied at the best score goes to
        the lower hand; every other tie goes to the upper hand (later in turn order).

        >>> order = ["Adam", "Boris", "Celine", "Dominik"]
        >>> DingNiu().rank(dict(zip(order, [10, 5, 5, 10])), order)
        ('Boris', 'Celine', 'Dominik', 'Adam')
        >>> DingNiu().rank(dict(zip(order, [10, 15, 15, 10])), order)
        ('Adam', 'Dominik', 'Celine', 'Boris')
        """
        upper_first = sorted(order, key=lambda name: (scores[name], -order.index(name)))
        groups = [list(group) for _, group in groupby(upper_first, key=scores.__getitem__)]
        best = groups[0]
        lowest_hand = min(best, key=order.index)
        best.remove(lowest_hand)
        return (lowest_hand, *(name for group in groups for name in group))

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        creators = [name for name in table.order if Special.SUANZHANG in flags[name]]
        if len(creators) > 1:
            raise ScoringError(
                "only one player creates the SuanZhang, but {names} are marked",
                table.result_path(creators[1], "specials"),
                names=names(creators),
            )
        ranking = self.rank(scores, table.order)
        winner = ranking[0]
        chip = table.options.chip
        payments: tuple[Payment, ...]
        if creators and creators[0] != winner:
            payments = (
                Payment(creators[0], winner, chip * SUANZHANG_PENALTY, 1, "suanzhang_loses"),
            )
        else:
            times, reason = (2, "suanzhang_wins") if creators else (1, "rank")
            payments = tuple(
                Payment(name, winner, chip * times * chips, times, reason)
                for name, chips in zip(ranking[1:], CHIPS, strict=True)
            )
        return Outcome(scores, ranking, payments)
