# A frozen copy of scoring/games/tiu_yu.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Tiu Yu (钓鱼, fishing, seed 004): large and small fish; the highest score collects."""

from __future__ import annotations

from functools import cache

from ..catches import Catch, check_catch, check_catches, is_large_fish
from ..errors import Problems, ScoringError
from ..games.base import Game, Outcome, Table
from ..model import ChiTsun, Entry, Hand, Payment, Result, Special
from ..options import ENDS
from ..text import N_
from ..tiles import Deck, Tile, subset_totals

LARGE_FISH_POINTS = 2  # per pip


def fish_score(large_fish_pips: int, small_fish_red: int) -> int:
    """Large fish count 2 per pip; small fish 1 per red spot, rounded up to a multiple of 10.

    >>> fish_score(22, 0), fish_score(0, 10), fish_score(0, 11), fish_score(4, 4)
    (44, 10, 20, 18)
    """
    return LARGE_FISH_POINTS * large_fish_pips + -(-small_fish_red // 10) * 10


@cache
def fish_totals() -> tuple[frozenset[int], frozenset[int]]:
    """The large-fish pip totals and small-fish red-spot totals the double-64 deck allows."""
    every = Deck.DOUBLE_64.all_tiles()
    large = tuple(tile.pips for tile in every if is_large_fish(tile))
    small = tuple(tile.red_spots for tile in every if not is_large_fish(tile))
    return subset_totals(large, 0, len(large)), subset_totals(small, 0, len(small))


class TiuYu(Game):
    key = "tiu-yu"
    title = "Tiu Yu"
    label = N_("Tiu Yu")
    player_counts = (2, 3)
    option_names = frozenset({"stake", "chi_tsun", "next_first", *ENDS})
    entry = Entry.FISH
    events = frozenset()
    higher_wins = True

    def deck(self, players: int) -> Deck:
        return Deck.DOUBLE_64

    def tiles_each(self, players: int) -> int:
        return 12 if players == 2 else 8

    def result_from_tiles(self, tiles: tuple[Tile, ...], specials: frozenset[Special]) -> Result:
        """The captured tiles sorted into large fish (their pips) and small (their red spots).

        >>> TiuYu().result_from_tiles((Tile(5, 6), Tile(1, 4), Tile(3, 3)), frozenset())[3:]
        (11, 5)
        """
        return Result(
            tiles=tiles,
            specials=specials,
            large_fish_pips=sum(tile.pips for tile in tiles if is_large_fish(tile)),
            small_fish_red=sum(tile.red_spots for tile in tiles if not is_large_fish(tile)),
        )

    def play(self, hand: Hand, table: Table) -> Outcome:
        self.check_results(hand, table)
        self.check_tiles(hand, table)
        scores = {}
        catches = []
        by_spots = table.options.chi_tsun is ChiTsun.BY_SPOTS
        problems = Problems()
        for name in table.order:
            result = hand.results[name]
            with problems:
                if result.specials:
                    raise ScoringError(
                        "Tiu Yu has no special results", table.result_path(name, "specials")
                    )
                self._check_fish(name, result, table)
                catch = Catch(name, result.large_fish_pips, result.small_fish_red, result.tiles)
                if not table.trusted:
                    check_catch(catch, table.result_path(name), by_spots=by_spots)
                catches.append(catch)
                scores[name] = fish_score(result.large_fish_pips, result.small_fish_red)
        problems.raise_any()
        if not table.trusted:
            check_catches(catches, table.path, by_spots=by_spots)
        ranking = self.rank(scores, table.order)
        winner = ranking[0]
        stake = table.options.stake
        payments = tuple(
            Payment(name, winner, stake * (scores[winner] - scores[name]), 1, "fish")
            for name in ranking[1:]
            if scores[name] < scores[winner]
        )
        return Outcome(scores, ranking, payments)

    def _check_fish(self, name: str, result: Result, table: Table) -> None:
        large, small = fish_totals()
        if result.large_fish_pips not in large:
            raise ScoringError(
                "{name}'s large fish cannot add up to {pips} pips: no set of tiles "
                "of 8 pips or more does",
                table.result_path(name, "large_fish_pips"),
                name=name,
                pips=result.large_fish_pips,
            )
        if result.small_fish_red not in small:
            raise ScoringError(
                "{name}'s small fish cannot have {red} red spots: no set of tiles "
                "under 8 pips does",
                table.result_path(name, "small_fish_red"),
                name=name,
                red=result.small_fish_red,
            )
