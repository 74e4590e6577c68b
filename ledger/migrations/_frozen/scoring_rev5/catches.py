# A frozen copy of scoring/catches.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Tiu Yu's catches: fish caught in mated pairs, and every catch of a hand from one deck at once.

A catch is a set of tiles that splits into mated pairs (RULES.md, Tiu Yu; seed 004): two
pieces with the same number of pips mate (6:4 with 5:5), "with the exception" of the two pieces
of the ch'i tsun, 1:2 and 2:4, which mate each other and, by default, nothing else (option
``chi_tsun: "itself"``). The option ``chi_tsun: "by_spots"`` is the looser house rule, where
the two also keep their mates by pips: 1:2 mates 1:2 and 2:4; 2:4 mates 1:2 and every piece
of 6 pips. A player who completes four alike takes four: two pairs. So

- tiles of 8 pips or more ("large fish") come in pairs of equal pips: large-fish pips are even,
  and 0 or at least 16;
- small fish: among the tiles of each number of pips an even number; by default as many 1:2 as
  2:4, and those two left out of their pips' groups; by spots, 1:2 and the 6-pip tiles
  together are even, and an odd number of 1:2 needs a 2:4 among them;
- all players' catches together fit in the deck (double-64: 272 large-fish pips, 48 red spots
  on small fish), and nothing else is asked of them (who caught what when is not seen).

Totals entered without tiles (``large_fish_pips``, ``small_fish_red``) must be totals that
such catches give, jointly with the other players' catches; entered tiles are those tiles.
Large and small fish never mate with each other, so the two are checked apart: the large by
``whole_hand.feasible`` over pairs of equal pips, the small by a search over the small tiles
that keeps, for every player, the parity of each group of mates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .errors import ScoringError
from .tiles import Deck, Tile
from .whole_hand import Groups, feasible, first_refused, names

LARGE_FISH = 8  # pips at which a tile is a large fish
LOW_CH_I_TSUN, HIGH_CH_I_TSUN = Tile(1, 2), Tile(2, 4)
_SHARED = HIGH_CH_I_TSUN.pips  # by spots, the group 1:2 joins: 2:4 and the 6-pip tiles
_CH_I_TSUN = 0  # by default, the group of the ch'i tsun alone (no tile has 0 pips)
_MOST = 10_000  # a bound on tiles that never binds


def is_large_fish(tile: Tile) -> bool:
    return tile.pips >= LARGE_FISH


def mate_group(tile: Tile, *, by_spots: bool = False) -> int:
    """Tiles mate only within a group: their pips, except the ch'i tsun's two pieces, which
    are a group of their own (``by_spots``: 1:2 joins 2:4's group of 6 pips)."""
    if tile in (LOW_CH_I_TSUN, HIGH_CH_I_TSUN):
        return _SHARED if by_spots else _CH_I_TSUN
    return tile.pips


def unmated(tiles: Sequence[Tile], *, by_spots: bool = False) -> tuple[Tile, ...]:
    """The tiles left without a mate however ``tiles`` are paired (none for a catch).

    >>> from scoring.tiles import tiles
    >>> unmated(tiles("6:6"))
    (Tile(low=6, high=6),)
    >>> unmated(tiles("1:2", "2:4", "6:5", "5:6")), unmated(tiles("1:5", "3:3"))
    ((), ())
    >>> [str(t) for t in unmated(tiles("3:3", "2:4"))], [str(t) for t in unmated(tiles("1:2"))]
    (['3:3', '2:4'], ['1:2'])
    >>> unmated(tiles("3:3", "2:4"), by_spots=True)
    ()
    >>> unmated(tiles("1:2", "1:2", "1:2", "2:4"), by_spots=True)
    ()
    """
    groups: dict[int, list[Tile]] = {}
    for tile in tiles:
        groups.setdefault(mate_group(tile, by_spots=by_spots), []).append(tile)
    left: list[Tile] = []
    for group, members in groups.items():
        if group == _CH_I_TSUN:
            lows, highs = members.count(LOW_CH_I_TSUN), members.count(HIGH_CH_I_TSUN)
            spare = LOW_CH_I_TSUN if lows > highs else HIGH_CH_I_TSUN
            left += [spare] * abs(lows - highs)
            continue
        lows = members.count(LOW_CH_I_TSUN)
        others = [tile for tile in members if tile != LOW_CH_I_TSUN]
        if lows % 2 and HIGH_CH_I_TSUN not in members:
            left.append(LOW_CH_I_TSUN)  # one 1:2 is left over, and only a 2:4 would mate it
            if len(others) % 2:
                left.append(others[-1])
        elif len(members) % 2:
            left.append(members[-1] if group != _SHARED or not others else others[-1])
    return tuple(left)


class Catch(NamedTuple):
    """One player's catch: the two totals, and the tiles when they were entered."""

    name: str
    large: int  # large-fish pips
    red: int  # red spots on the small fish
    tiles: tuple[Tile, ...] | None = None


def check_catch(catch: Catch, path: str, *, by_spots: bool = False) -> None:
    """Refuse one player's catch that no mated pairs of the deck give (``path``: the result).

    >>> check_catch(Catch("Anna", 9, 0), "hands[0].results.Anna")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: Anna's large fish cannot add up to 9 pips: fish are caught in \
mated pairs, so large-fish pips are even, and 0 or at least 16
    """
    if catch.tiles is not None:
        left = unmated(catch.tiles, by_spots=by_spots)
        if left and not by_spots:
            raise ScoringError(
                "{name}'s catch does not split into mated pairs (two tiles with the same "
                "number of pips, except 1:2 and 2:4, which mate only each other): nothing "
                "mates {tiles}",
                f"{path}.tiles",
                name=catch.name,
                tiles=", ".join(str(tile) for tile in left),
            )
        if left:
            raise ScoringError(
                "{name}'s catch does not split into mated pairs (two tiles with the same "
                "number of pips, or 1:2 with 2:4): nothing mates {tiles}",
                f"{path}.tiles",
                name=catch.name,
                tiles=", ".join(str(tile) for tile in left),
            )
        return
    if catch.large not in large_totals():
        if catch.large % 2 or catch.large < 2 * LARGE_FISH:
            raise ScoringError(
                "{name}'s large fish cannot add up to {pips} pips: fish are caught in mated "
                "pairs, so large-fish pips are even, and 0 or at least 16",
                f"{path}.large_fish_pips",
                name=catch.name,
                pips=catch.large,
            )
        raise ScoringError(
            "{name}'s large fish cannot add up to {pips} pips: no mated pairs of the deck's "
            "large fish do",
            f"{path}.large_fish_pips",
            name=catch.name,
            pips=catch.large,
        )
    if catch.red not in small_totals(by_spots):
        raise ScoringError(
            "{name}'s small fish cannot have {red} red spots: no mated pairs of the deck's "
            "small fish do",
            f"{path}.small_fish_red",
            name=catch.name,
            red=catch.red,
        )


def check_catches(catches: Sequence[Catch], path: str, *, by_spots: bool = False) -> None:
    """Refuse (at ``path``, the hand) catches that no deal of the double-64 deck gives all at
    once. Each catch has passed ``check_catch``.

    >>> check_catches([Catch("Anna", 272, 0), Catch("Bob", 16, 0)], "hands[0]")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: these catches cannot all be true in one hand: Anna 272, \
Bob 16 large-fish pips add up to 288, more than the 272 in the deck
    """
    for large in (True, False):
        if not _possible(catches, large=large, by_spots=by_spots):
            raise _refusal(catches, path, large=large, by_spots=by_spots)


def clear_caches() -> None:
    """Forget every answer remembered (for a benchmark of hands never seen); what one catch
    can add up to (``large_totals``, ``small_totals``) is kept."""
    for cached in (_small_feasible, _large_pairs, _small_supply):
        cached.cache_clear()


# -- the search -------------------------------------------------------------------------------


def _entered(catches: Sequence[Catch]) -> tuple[tuple[Tile, int], ...]:
    counts: Counter[Tile] = Counter()
    for catch in catches:
        if catch.tiles is not None:
            counts.update(catch.tiles)
    return tuple(sorted(counts.items()))


def _possible(catches: Sequence[Catch], *, large: bool, by_spots: bool) -> bool:
    """Whether the large fish (or the small) of ``catches`` can all be caught at once."""
    entered = _entered(catches)
    free = [catch for catch in catches if catch.tiles is None]
    if large:
        pips = tuple(sorted((0, _MOST, catch.large) for catch in free if catch.large))
        return feasible(_large_pairs(entered), pips)
    reds = tuple(sorted(catch.red for catch in free if catch.red))
    return not reds or _small_feasible(_small_supply(entered, by_spots), reds)


@lru_cache(maxsize=256)
def _large_pairs(entered: tuple[tuple[Tile, int], ...]) -> Groups:
    """The large fish left, as pairs of equal pips: (pips of a pair, pairs)."""
    left = Counter(Deck.DOUBLE_64.counts) - Counter(dict(entered))
    by_pips: Counter[int] = Counter()
    for tile, copies in left.items():
        if is_large_fish(tile):
            by_pips[tile.pips] += copies
    pairs = ((2 * pips, n // 2, False) for pips, n in by_pips.items() if n >= 2)
    return tuple(sorted(pairs, reverse=True))


@lru_cache(maxsize=1)
def large_totals() -> frozenset[int]:
    """The large-fish pips that one catch of mated pairs from the double-64 deck can have.

    >>> sorted(large_totals())[:8], 26 in large_totals(), max(large_totals())
    ([0, 16, 18, 20, 22, 24, 32, 34], False, 272)
    """
    pairs = _large_pairs(())
    totals = {0}
    for value, copies, _ in pairs:
        totals = {t + k * value for t in totals for k in range(copies + 1)}
    return frozenset(totals)


@lru_cache(maxsize=2)
def small_totals(by_spots: bool = False) -> frozenset[int]:
    """The red spots on small fish that one catch of mated pairs from the double-64 deck can
    have: every number up to the 48 they have in all.

    >>> small_totals() == small_totals(by_spots=True) == frozenset(range(49))
    True
    """
    supply = _small_supply((), by_spots)
    return frozenset(
        red for red in range(_deck_red(by_spots) + 1) if _small_feasible(supply, (red,))
    )


# A small tile in the search: its red spots, copies left, its group of mates, and its role:
# 1 for 1:2, 2 for 2:4 (by spots), 3 for a mated ch'i tsun (1:2 with 2:4 as one piece, by
# default), 0 for the rest.
_Small = tuple[int, int, int, int]
_PAIR = 3


@lru_cache(maxsize=256)
def _small_supply(entered: tuple[tuple[Tile, int], ...], by_spots: bool) -> tuple[_Small, ...]:
    """The small fish left, group by group (2:4, then 1:2, first in theirs), most red first.
    By default the ch'i tsun's two pieces are left only as mated pairs, one piece each."""
    left = Counter(Deck.DOUBLE_64.counts) - Counter(dict(entered))
    role = {LOW_CH_I_TSUN: 1, HIGH_CH_I_TSUN: 2} if by_spots else {}
    pairs: tuple[_Small, ...] = ()
    if not by_spots:
        mated = min(left.pop(LOW_CH_I_TSUN, 0), left.pop(HIGH_CH_I_TSUN, 0))
        red = LOW_CH_I_TSUN.red_spots + HIGH_CH_I_TSUN.red_spots
        pairs = ((red, mated, _CH_I_TSUN, _PAIR),) if mated else ()
    return pairs + tuple(
        (tile.red_spots, copies, mate_group(tile, by_spots=by_spots), role.get(tile, 0))
        for tile, copies in sorted(
            left.items(),
            key=lambda item: (
                mate_group(item[0], by_spots=by_spots),
                -role.get(item[0], 0),
                -item[0].red_spots,
            ),
        )
        if copies and not is_large_fish(tile)
    )


# A player's state within a group of mates: bit 0, an odd number of its tiles taken; bit 1, an
# odd number of 1:2; bit 2, a 2:4 among them. The group pairs up when bit 0 is clear and bit 1
# is clear or bit 2 set.
_ODD, _LOW_ODD, _HIGH = 1, 2, 4


def _pairs_up(state: int) -> bool:
    return not state & _ODD and (not state & _LOW_ODD or bool(state & _HIGH))


@lru_cache(maxsize=4096)
def _small_feasible(supply: tuple[_Small, ...], reds: tuple[int, ...]) -> bool:
    """Whether disjoint catches of ``supply``'s small fish have red spots ``reds`` at once."""
    red_after = [0] * (len(supply) + 1)
    for i in range(len(supply) - 1, -1, -1):
        red_after[i] = red_after[i + 1] + supply[i][0] * supply[i][1]
    failed: set[tuple[int, tuple[tuple[int, int], ...]]] = set()

    def run(i: int, players: tuple[tuple[int, int], ...]) -> bool:
        if sum(red for red, _ in players) > red_after[i]:
            return False
        if i == len(supply):
            return True  # every red found, every group paired up (checked at its end)
        key = (i, players)
        if key in failed:
            return False
        red, copies, group, role = supply[i]
        closes = i + 1 == len(supply) or supply[i + 1][2] != group
        for split in _small_splits(players, red, copies, role):
            if closes:
                if not all(_pairs_up(state) for _, state in split):
                    continue
                split = [(left, 0) for left, _ in split]
            if run(i + 1, tuple(sorted(split))):
                return True
        failed.add(key)
        return False

    return run(0, tuple((red, 0) for red in sorted(reds)))


def _small_splits(
    players: tuple[tuple[int, int], ...], red: int, copies: int, role: int
) -> list[list[tuple[int, int]]]:
    """Every way to hand out up to ``copies`` of one small tile: a player takes what fits
    their red spots left; of a tile without red, one at most (only its parity counts)."""
    options: list[list[tuple[int, tuple[int, int]]]] = []
    for left, state in players:
        top = min(copies, left // red) if red else min(copies, 1)
        mine = []
        for x in range(top, -1, -1):
            # A mated ch'i tsun is two tiles: it never changes the parity of its group.
            after = state ^ (_ODD if x % 2 and role != _PAIR else 0)
            if role == 1 and x % 2:
                after ^= _LOW_ODD
            if role == 2 and x:
                after |= _HIGH
            mine.append((x, (left - x * red, after)))
        options.append(mine)
    found: list[list[tuple[int, int]]] = []
    chosen: list[tuple[int, int]] = []

    def pick(p: int, left: int) -> None:
        if p == len(options):
            found.append(list(chosen))
            return
        for x, after in options[p]:
            if x <= left:
                chosen.append(after)
                pick(p + 1, left - x)
                chosen.pop()

    pick(0, copies)
    return found


# -- saying why -------------------------------------------------------------------------------


def _refusal(catches: Sequence[Catch], path: str, *, large: bool, by_spots: bool) -> ScoringError:
    """A total beyond the deck, else the fewest players whose catches cannot all be true."""
    named = [catch for catch in catches if (catch.large if large else catch.red)]
    total = sum(catch.large if large else catch.red for catch in named)
    deck = sum(v * n for v, n, _ in _large_pairs(())) if large else _deck_red(by_spots)
    if large and total > deck:
        return ScoringError(
            "these catches cannot all be true in one hand: {fish} large-fish pips add up "
            "to {total}, more than the {deck} in the deck",
            path,
            fish=names([f"{catch.name} {catch.large}" for catch in named]),
            total=total,
            deck=deck,
        )
    if not large and total > deck:
        return ScoringError(
            "these catches cannot all be true in one hand: {fish} red spots on small fish add "
            "up to {total}, more than the {deck} in the deck",
            path,
            fish=names([f"{catch.name} {catch.red}" for catch in named]),
            total=total,
            deck=deck,
        )
    fewest = first_refused(
        named, 2, lambda subset: _possible(subset, large=large, by_spots=by_spots)
    )
    if large:
        return ScoringError(
            "these catches cannot all be true in one hand: no deal of the deck gives {fish} "
            "large-fish pips at the same time",
            path,
            fish=names([f"{catch.name} {catch.large}" for catch in fewest]),
        )
    return ScoringError(
        "these catches cannot all be true in one hand: no deal of the deck gives {fish} "
        "red spots on small fish at the same time",
        path,
        fish=names([f"{catch.name} {catch.red}" for catch in fewest]),
    )


def _deck_red(by_spots: bool) -> int:
    return sum(red * copies for red, copies, _, _ in _small_supply((), by_spots))
