"""What tables paid, as their result rows keep it (ledger.tables.results): the one module that
sums money, for the table page, its summary, the API and CSV, the standings and the group's
ledger (the group's statistics count the rows that stand, in ledger.groups.stats).

Each sum runs over every row of a table, reversals included. A reversal cancels the row it
takes back (its score, net and flows negated, its hand won counted -1), so the sums are those
of the rows that stand, without asking which those are; the database adds them up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import NamedTuple, Protocol

from django.db.models import Case, Q, Sum, Value, When

import scoring
from ledger.tables.models import Result

ZERO = Decimal(0)

# +1 for a row, -1 for a reversal: their sum counts the rows that stand (hands played).
HANDS = Sum(Case(When(reverses=None, then=Value(1)), default=Value(-1)))
# The same for the hands won.
HANDS_WON = Sum(
    Case(
        When(Q(won=True, reverses=None), then=Value(1)),
        When(won=True, then=Value(-1)),
        default=Value(0),
    )
)


class Sums(NamedTuple):
    """A player's rows at a table, summed."""

    net: Decimal
    score: int  # total score (0 where the game gives none)
    won: int  # hands won
    hands: int  # hands played (a redeal is nobody's)


class Table(Protocol):
    """A TableSession, or a table as an event reads it: its id and seated players."""

    @property
    def pk(self) -> int: ...
    @property
    def seated(self) -> dict[int, str]: ...  # each seated player's id and name, in seat order


def sums(tables: Iterable[int]) -> dict[tuple[int, int], Sums]:
    """Each player's ``Sums`` per (table id, player id) of the ``tables`` (ids), summed by the
    database in one query."""
    summed = (
        Result.objects.filter(session__in=list(tables))
        .order_by()
        .values_list("session", "player")
        .annotate(net=Sum("net"), score=Sum("score"), won=HANDS_WON, hands=HANDS)
    )
    return {
        (table, player): Sums(net, score or 0, won, hands)
        for table, player, net, score, won, hands in summed
    }


def totals(tables: Iterable[Table]) -> dict[int, scoring.Totals]:
    """Each table's net, total score and hands won per seated player (by name, in seat
    order): ``sums``, in one query."""
    seated = {table.pk: table.seated for table in tables}
    net = {pk: dict.fromkeys(names.values(), ZERO) for pk, names in seated.items()}
    scores = {pk: dict.fromkeys(names.values(), 0) for pk, names in seated.items()}
    won = {pk: dict.fromkeys(names.values(), 0) for pk, names in seated.items()}
    for (pk, player), summed in sums(seated).items():
        name = seated[pk][player]
        net[pk][name], scores[pk][name], won[pk][name] = summed.net, summed.score, summed.won
    return {pk: scoring.Totals(net[pk], scores[pk], won[pk]) for pk in seated}


def table_totals(table: Table) -> scoring.Totals:
    """One table's ``totals``."""
    return totals([table])[table.pk]


def won_from(tables: Iterable[Table]) -> dict[int, dict[tuple[str, str], Decimal]]:
    """Who won what from whom at each table, before netting, (payee, payer) by name: what a
    pairwise summary and a head-to-head need (scoring.won_from). One query."""
    names: Mapping[int, dict[int, str]] = {table.pk: table.seated for table in tables}
    found: dict[int, dict[tuple[str, str], Decimal]] = {pk: defaultdict(Decimal) for pk in names}
    rows = Result.objects.filter(session__in=list(names)).order_by()
    for table, player, flows in rows.values_list("session", "player", "won_from"):
        seated = names[table]
        for payer, value in flows.items():
            found[table][seated[player], seated[int(payer)]] += Decimal(value)
    return {pk: {pair: v for pair, v in flows.items() if v} for pk, flows in found.items()}
