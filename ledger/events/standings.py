"""An event's standings from what its tables paid and played: pure Python, no Django, no
database.

Players are ranked by net winnings, then by the event's tie-breakers in order (more hands won,
fewer points taken, head-to-head among the players still level), then by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import groupby
from typing import Any, Protocol

from scoring import Totals
from scoring.names import canonical


class Counted(Protocol):
    """What standings need of one table: its totals and who won what from whom (as its result
    rows sum them), and the hands that count (events.selectors.Counted)."""

    @property
    def totals(self) -> Totals: ...
    @property
    def won_from(self) -> Mapping[tuple[str, str], Decimal]: ...
    @property
    def counted(self) -> int: ...


@dataclass
class Standing:
    name: str
    active: bool
    net: Decimal = Decimal(0)
    hands_won: int = 0
    points: int = 0  # total score (pips) taken: fewer is better
    hands: int = 0
    byes: int = 0
    rounds: dict[int, tuple[int | None, Decimal]] = field(default_factory=dict)  # table, net
    place: int = 0


TIE_BREAKERS: dict[str, Callable[[Standing], Any]] = {
    "hands_won": lambda row: -row.hands_won,
    "fewest_points": lambda row: row.points,
}


def rank(
    entries: Iterable[tuple[str, bool]],
    tables: Iterable[tuple[int, int, list[str], Counted]],
    byes: Iterable[tuple[int, list[str]]],
    tie_breakers: list[str],
) -> list[Standing]:
    """Every player's standing, best first: ``entries`` are (name, active), ``tables`` are
    (round, table number, seating, tally), ``byes`` are (round, names)."""
    rows = {canonical(name): Standing(name, active) for name, active in entries}
    h2h: defaultdict[str, defaultdict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for round_number, table_number, seating, counted in tables:
        for name in seating:
            row = rows.setdefault(canonical(name), Standing(name, False))
            row.net += counted.totals.net[name]
            row.hands_won += counted.totals.hands_won[name]
            row.points += counted.totals.scores[name]
            row.hands += counted.counted
            row.rounds[round_number] = (table_number, counted.totals.net[name])
        for (payee, payer), value in counted.won_from.items():
            h2h[payee][payer] += value  # what each won from each opponent
            h2h[payer][payee] -= value
    for round_number, names in byes:
        for name in names:
            row = rows.setdefault(canonical(name), Standing(name, False))
            row.byes += 1
            row.rounds[round_number] = (None, Decimal(0))
    return order(list(rows.values()), tie_breakers, h2h)


def order(
    rows: list[Standing], tie_breakers: list[str], h2h: Mapping[str, Mapping[str, Decimal]]
) -> list[Standing]:
    def key(row: Standing) -> tuple[Any, ...]:
        return (-row.net, *(TIE_BREAKERS[t](row) for t in tie_breakers if t in TIE_BREAKERS))

    rows.sort(key=lambda row: (*key(row), row.name.casefold()))
    if "head_to_head" in tie_breakers:
        # Among players level on everything before it: what each won from the others.
        position = tie_breakers.index("head_to_head")
        before = [t for t in tie_breakers[:position] if t in TIE_BREAKERS]

        def level(row: Standing) -> tuple[Any, ...]:
            return (-row.net, *(TIE_BREAKERS[t](row) for t in before))

        ranked: list[Standing] = []
        for _, group in groupby(rows, key=level):
            tied = list(group)
            names = {row.name for row in tied}
            won = {
                row.name: sum(v for other, v in h2h.get(row.name, {}).items() if other in names)
                for row in tied
            }
            ranked += sorted(tied, key=lambda row: -won[row.name])  # stable: keeps the rest
        rows = ranked
    for place, row in enumerate(rows, start=1):
        row.place = place
    return rows
