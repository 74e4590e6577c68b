"""Seating a tournament round: who sits at which table, who leads first, who has a bye.

Pure Python (no Django, no database), bounded and deterministic: the same players, history and
seed always give the same seating, and the work is at most a fixed number of passes over the
players, never a random search that may not end.

- **Table sizes**: as few tables as seat everyone, sizes differing by at most one, within the
  sizes the game allows (10 players of a 2-to-4-player game: 4, 3, 3). Where no such split exists
  (a game of exactly 4), the fewest players possible sit out with a bye.
- **Byes** go to whoever has had the fewest so far; among them, round 1 and "mixing" draw from
  the seeded order, "standings" gives them to the lowest placed. A bye scores 0 (no money
  changes hands) and counts as no hand played.
- **Round 1** (and the "random" method): a shuffle seeded by the event's seed and the round.
- **"standings"**: strongest together: the leader's table holds the top players.
- **"mixing"**: fewest repeat table-mates. Each table is filled greedily with the player who
  has met its members least often, then pairs of players in different tables are swapped while
  a swap lowers the repeats, for at most ``SWAP_PASSES`` passes.
- **Who leads first** at each table: the player who has led first least often so far (the
  seeded order breaks ties), seated at seat 0; the others follow in seeded order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

SWAP_PASSES = 3


class Method(StrEnum):
    RANDOM = "random"
    STANDINGS = "standings"
    MIXING = "mixing"


@dataclass(frozen=True)
class Seating:
    tables: tuple[tuple[str, ...], ...]  # each table's players; seat 0 leads the first hand
    byes: tuple[str, ...]

    def repeats(self, met: Mapping[frozenset[str], int]) -> int:
        """How many pairs at these tables have sat together before (counted once a pair)."""
        return sum(1 for table in self.tables for pair in _pairs(table) if met.get(pair, 0))


def table_sizes(count: int, allowed: Sequence[int]) -> tuple[list[int], int]:
    """The sizes of the round's tables and how many players sit out.

    >>> table_sizes(10, (2, 3, 4)), table_sizes(10, (4,)), table_sizes(7, (2, 3))
    (([4, 3, 3], 0), ([4, 4], 2), ([3, 2, 2], 0))
    """
    low, high = min(allowed), max(allowed)
    if set(allowed) != set(range(low, high + 1)):
        raise ValueError(f"table sizes must be a range, not {allowed}")
    for byes in range(count + 1):
        seated = count - byes
        tables = -(-seated // high)  # ceiling
        if seated == 0 or seated >= tables * low:
            base, extra = divmod(seated, tables) if tables else (0, 0)
            return [base + 1] * extra + [base] * (tables - extra), byes
    raise AssertionError("unreachable: seating nobody always fits")


def met_counts(tables: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How often each pair of players has sat at the same table, from earlier rounds' tables."""
    return Counter(pair for table in tables for pair in _pairs(table))


def seat_round(
    players: Sequence[str],
    *,
    allowed: Sequence[int],
    method: Method,
    seed: str,
    round_number: int,
    standings: Sequence[str] = (),
    met: Mapping[frozenset[str], int] | None = None,
    led: Mapping[str, int] | None = None,
    byes_had: Mapping[str, int] | None = None,
) -> Seating:
    """Seat ``players`` (distinct names) for round ``round_number``.

    ``standings`` ranks players best first (for "standings"; anyone missing ranks last);
    ``met``, ``led`` and ``byes_had`` are what earlier rounds did (see ``met_counts``).
    """
    if len(set(players)) != len(players):
        raise ValueError("each player may be seated once")
    met, led, byes_had = met or {}, led or {}, byes_had or {}
    sizes, bye_count = table_sizes(len(players), allowed)
    drawn = sorted(players)
    random.Random(f"{seed}:{round_number}").shuffle(drawn)
    draw_rank = {name: i for i, name in enumerate(drawn)}

    if method is Method.STANDINGS and round_number > 1:
        rank = {name: i for i, name in enumerate(standings)}
        order = sorted(players, key=lambda name: (rank.get(name, len(rank)), draw_rank[name]))
        place = {name: i for i, name in enumerate(order)}
        # The lowest placed of those with the fewest byes sit out.
        by_bye = sorted(order, key=lambda name: (byes_had.get(name, 0), -place[name]))
    else:
        order = drawn
        by_bye = sorted(order, key=lambda name: (byes_had.get(name, 0), draw_rank[name]))
    byes = set(by_bye[:bye_count])
    seated = [name for name in order if name not in byes]

    if method is Method.MIXING and round_number > 1:
        tables = _mix(seated, sizes, met)
    else:
        tables, start = [], 0
        for size in sizes:
            tables.append(seated[start : start + size])
            start += size
    return Seating(
        tables=tuple(_lead_order(table, led, draw_rank) for table in tables),
        byes=tuple(name for name in order if name in byes),
    )


def _pairs(table: Sequence[str]) -> Iterable[frozenset[str]]:
    return (frozenset(pair) for pair in combinations(table, 2))


def _lead_order(
    table: Sequence[str], led: Mapping[str, int], draw_rank: Mapping[str, int]
) -> tuple[str, ...]:
    first = min(table, key=lambda name: (led.get(name, 0), draw_rank[name]))
    return (first, *sorted((name for name in table if name != first), key=draw_rank.__getitem__))


def _mix(
    players: list[str], sizes: list[int], met: Mapping[frozenset[str], int]
) -> list[list[str]]:
    """Tables with as few repeat table-mates as a bounded greedy fill and swaps find."""
    known: dict[str, Counter[str]] = {name: Counter() for name in players}
    for pair, times in met.items():
        if times and pair <= known.keys():
            a, b = tuple(pair)
            known[a][b] += times
            known[b][a] += times

    def cost(name: str, table: Iterable[str]) -> int:
        return sum(known[name][other] for other in table)

    remaining = list(players)
    tables: list[list[str]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best, best_cost = 0, None
            for i, name in enumerate(remaining):
                here = cost(name, table)
                if best_cost is None or here < best_cost:
                    best, best_cost = i, here
                    if here == 0:
                        break
            table.append(remaining.pop(best))
        tables.append(table)

    for _ in range(SWAP_PASSES):
        improved = False
        for t, table in enumerate(tables):
            for i, name in enumerate(table):
                if cost(name, (other for other in table if other != name)) == 0:
                    continue
                if swap := _better_swap(tables, t, i, cost):
                    u, j = swap
                    table[i], tables[u][j] = tables[u][j], table[i]
                    improved = True
        if not improved:
            break
    return tables


Cost = Callable[[str, Iterable[str]], int]


def _better_swap(tables: list[list[str]], t: int, i: int, cost: Cost) -> tuple[int, int] | None:
    """The first player of another table whose swap with ``tables[t][i]`` lowers the repeats."""
    table, name = tables[t], tables[t][i]
    rest = [other for other in table if other != name]
    before_mine = cost(name, rest)
    for u, theirs in enumerate(tables):
        if u == t:
            continue
        for j, other in enumerate(theirs):
            their_rest = [p for p in theirs if p != other]
            before = before_mine + cost(other, their_rest)
            after = cost(other, rest) + cost(name, their_rest)
            if after < before:
                return u, j
    return None
