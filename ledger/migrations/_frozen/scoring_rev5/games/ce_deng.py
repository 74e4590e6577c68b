# A frozen copy of scoring/games/ce_deng.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Ce Deng (斜钉): pairwise with pass, head and tail doubles; redeals and declared doubles."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from ..errors import Problems, ScoringError
from ..games.base import LOW, Game, Outcome, Table
from ..model import ChipPayment, Doubles, Hand, HandEvent, Payment, Special
from ..options import ENDS
from ..settlement import pairwise
from ..text import N_, Phrase
from ..whole_hand import Claim, check_declared_doubles

# The multiplier belongs to the pair, whichever of the two pays (RULES.md, Decision).
_MULTIPLIERS = {
    frozenset({"normal"}): (1, "difference"),
    frozenset({"low"}): (1, "difference"),
    frozenset({"low", "normal"}): (2, "low"),
    frozenset({"pass", "normal"}): (2, "pass"),
    frozenset({"pass", "low"}): (4, "pass_low"),
    frozenset({"pass"}): (1, "difference"),  # both score 0: nothing is paid
}
DECLARED_DOUBLES_TIMES = 2


class CeDeng(Game):
    key = "ce-deng"
    title = "Ce Deng"
    label = N_("Ce Deng 斜钉")
    player_counts = (2, 3, 4)
    option_names = frozenset(
        {
            "stake",
            "payment",
            "chip",
            "doubles",
            "head_tail",
            "redeal_doubles",
            "next_first",
            *ENDS,
        }
    )
    payments = (ChipPayment.PAIRWISE, ChipPayment.CHIPS)
    specials = frozenset(
        {Special.PASS, Special.HEAD_SEVEN, Special.TAIL_EIGHT, Special.HEAD_SIX, Special.TAIL_SEVEN}
    )
    events = frozenset({HandEvent.BLOCKED, HandEvent.REDEAL, HandEvent.DECLARED_DOUBLES})
    alternates = True

    def tiles_each(self, players: int) -> int:
        return 8

    def play(self, hand: Hand, table: Table) -> Outcome:
        if hand.declared_doubles is None:
            return super().play(hand, table)
        return self._declared_doubles(hand.declared_doubles, hand, table)

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        ranking = self.rank(scores, table.order)
        chips = self.payment(table.options) is ChipPayment.CHIPS
        if not any(flags.values()):
            if chips:
                return Outcome(scores, ranking, self.in_chips(ranking, table))
            payments = pairwise(scores, table.order, table.options.stake)
            return Outcome(scores, ranking, payments)
        kind = {
            name: "pass" if Special.PASS in mine else "low" if mine & LOW else "normal"
            for name, mine in flags.items()
        }

        def multiplier(a: str, b: str) -> tuple[int, str]:
            return _MULTIPLIERS[frozenset({kind[a], kind[b]})]

        if chips:
            return Outcome(scores, ranking, self.in_chips(ranking, table, multiplier))
        payments = pairwise(scores, table.order, table.options.stake, multiplier)
        return Outcome(scores, ranking, payments)

    def _declared_doubles(self, holder: str, hand: Hand, table: Table) -> Outcome:
        """The hand is not played: every other player pays the holder twice their own pips."""
        self.check_results(hand, table, skip=holder)
        self.check_tiles(hand, table)
        dealt = self.tiles_each(table.players)
        others = tuple(name for name in table.order if name != holder)
        problems = Problems()
        for name in others:
            result = hand.results[name]
            with problems:
                if result.specials:
                    raise ScoringError(
                        "{holder} declared doubles, so the hand was not played "
                        "and {name} can have no special result",
                        table.result_path(name, "specials"),
                        holder=holder,
                        name=name,
                    )
                why = Phrase(
                    "the hand was not played: each counts the {dealt} tiles dealt", dealt=dealt
                )
                self.check_pips(name, result, table, (dealt, dealt), why)
        problems.raise_any()
        if not table.trusted:
            claims = [
                Claim(name, hand.results[name].pips, dealt, dealt, hand.results[name].tiles)
                for name in others
            ]
            check_declared_doubles(self.deck(table.players), holder, claims, table.path)
        scores = {name: hand.results[name].pips for name in others}
        scores[holder] = 0
        ranking = (holder, *self.rank(scores, others))
        options = table.options
        if self.pays_chips(options) and options.doubles is Doubles.CHIPS:
            # One table, one unit (rules rev 5): twice a won hand's chip from each other player;
            # the pips entered prove the hand and count as their scores, and pay nothing.
            payments = tuple(
                Payment(
                    name,
                    holder,
                    options.chip * DECLARED_DOUBLES_TIMES,
                    DECLARED_DOUBLES_TIMES,
                    HandEvent.DECLARED_DOUBLES.value,
                )
                for name in others
            )
            return Outcome(scores, ranking, payments)
        # By the stake: at a pairwise table, and at a chips table played before rules rev 5
        # (``doubles: stake``); at a table for points only (a value of 0: the stake, or the chip
        # where the table pays chips) nothing is paid (rules rev 4).
        stake = options.stake if self.unit(options) else Decimal(0)
        payments = tuple(
            Payment(
                name,
                holder,
                stake * DECLARED_DOUBLES_TIMES * scores[name],
                DECLARED_DOUBLES_TIMES,
                HandEvent.DECLARED_DOUBLES.value,
            )
            for name in others
            if scores[name]
        )
        return Outcome(scores, ranking, payments)
