"""A table's tally: what an event's standings need of it, kept on the table.

Every change that ``ledger.tables.services`` makes to a table rewrites its tally in the same
transaction, so the standings of 150 tables read 150 small documents instead of scoring 3,000
hands on every page. A tally records the revision, game, options, seating and first player it
was counted for; one that does not match its table (edited in the admin, say, or never counted)
is not used: the standings count that table from its hands instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

import scoring
from scoring import HandResult

# (number, data with players by name, voided, version) of each hand of a table, in order
StoredHands = list[tuple[int, dict[str, Any], bool, int]]


class Table(Protocol):
    """A TableSession, or a table as an event's standings read it (selectors.EventTable)."""

    @property
    def game(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def first(self) -> str: ...
    @property
    def revision(self) -> int: ...
    @property
    def tally(self) -> dict[str, Any]: ...
    @property
    def seating(self) -> list[str]: ...
    @property
    def seated(self) -> dict[int, str]: ...  # each seated player's id and name, in seat order

    def document(self, hands: list[dict[str, Any]]) -> dict[str, Any]: ...


@dataclass
class Tally:
    totals: scoring.Totals  # as the engine adds them up
    won_from: dict[tuple[str, str], Decimal]  # (payee, payer) -> what the payee won, ditto
    recorded: int = 0  # hands recorded, voided ones included
    counted: int = 0  # hands that count
    corrected: bool = False  # a hand was corrected or voided
    time_up: bool = False  # the table's time ran out: its last hand was played

    @classmethod
    def empty(cls, seating: list[str]) -> Tally:
        return cls(scoring.totals(seating, []), {})

    def add(self, hand: HandResult) -> None:
        """A newly recorded hand, as the scoring engine settled it."""
        self.totals = scoring.totals((), [hand], self.totals)
        self.won_from = scoring.won_from([hand], self.won_from)
        self.recorded += 1
        self.counted += 1


def score_table(
    table: Table, hands: list[dict[str, Any]], new: int | None = None
) -> scoring.SessionResult:
    """The table scored from scratch with ``hands`` (as entered, voided ones left out): the one
    way the ledger asks the engine about a table. Raises ScoringError.

    Every hand but the one at index ``new`` (the hand being entered or corrected, if any) was
    checked when it was saved: its players' results are not checked together again, so a page
    costs no more than before, and a hand stored under older rules still scores as it did.
    """
    session = scoring.parse_session(table.document(hands))
    return scoring.score_session(session, new=() if new is None else (new,))


def count(table: Table, hands: StoredHands, result: scoring.SessionResult | None = None) -> Tally:
    """Score every hand of the table (``result``: the table scored already, if it was)."""
    if result is None:
        result = score_table(table, [data for _, data, voided, _ in hands if not voided])
    corrected = any(version > 1 or voided for _, _, voided, version in hands)
    won_from = scoring.won_from(result.hands)
    time_up = result.end is not None and result.end.reason is scoring.EndReason.TIME
    return Tally(result.totals, won_from, len(hands), len(result.hands), corrected, time_up)


def _of(table: Table, revision: int) -> list[Any]:
    ids = {name: pk for pk, name in table.seated.items()}
    return [revision, table.game, table.options, list(ids.values()), ids.get(table.first)]


def stored(table: Table, tally: Tally, revision: int) -> dict[str, Any]:
    """The tally as kept in ``TableSession.tally``, counted at ``revision``: its players by
    id, as the table's hands are stored (ledger.tables.stored)."""
    ids = {name: pk for pk, name in table.seated.items()}

    def by_id(values: Mapping[str, Any]) -> dict[str, Any]:
        return {str(ids[name]): value for name, value in values.items()}

    totals = tally.totals
    return {
        "of": _of(table, revision),
        "net": by_id({name: str(value) for name, value in totals.net.items()}),
        "hands_won": by_id(totals.hands_won),
        "points": by_id(totals.scores),
        "recorded": tally.recorded,
        "counted": tally.counted,
        "corrected": tally.corrected,
        "time_up": tally.time_up,
        "owed": [
            [ids[payee], ids[payer], str(value)] for (payee, payer), value in tally.won_from.items()
        ],
    }


def kept(table: Table) -> Tally | None:
    """The table's kept tally, or None if it was not counted for the table as it is now."""
    doc = table.tally
    if not doc or doc["of"] != _of(table, table.revision):
        return None
    names = table.seated

    def named(values: dict[str, Any]) -> dict[str, Any]:
        return {names[int(pk)]: value for pk, value in values.items()}

    net = {name: Decimal(value) for name, value in named(doc["net"]).items()}
    totals = scoring.Totals(net, named(doc["points"]), named(doc["hands_won"]))
    won_from = {(names[payee], names[payer]): Decimal(value) for payee, payer, value in doc["owed"]}
    return Tally(
        totals,
        won_from,
        doc["recorded"],
        doc["counted"],
        doc["corrected"],
        doc.get("time_up", False),  # kept before tables ended by time
    )
