"""A table's tally: how far it has played, kept on the table for an event's standings and
round pages (hands recorded, hands that count, whether one was corrected, whether its time is
up). Money is not here: the result rows keep it (ledger.tables.money).

Every change that ``ledger.tables.services`` makes to a table rewrites its tally in the same
transaction, so the rounds of 150 tables read 150 small documents instead of scoring 3,000
hands on every page. A tally records the revision, game, options, seating and first player it
was counted for; one that does not match its table (edited in the admin, say, or never counted)
is not used: the standings count that table from its hands instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import scoring

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
    recorded: int = 0  # hands recorded, voided ones included
    counted: int = 0  # hands that count
    corrected: bool = False  # a hand was corrected or voided
    time_up: bool = False  # the table's time ran out: its last hand was played

    def add(self) -> None:
        """A newly recorded hand."""
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
    return scored(table, hands, new)[1]


def scored(
    table: Table, hands: list[dict[str, Any]], new: int | None = None
) -> tuple[scoring.Session, scoring.SessionResult]:
    """``score_table``, with the session as the engine parsed it: what explains a hand's
    specials (ledger.tables.results.proofs)."""
    session = scoring.parse_session(table.document(hands))
    return session, scoring.score_session(session, new=() if new is None else (new,))


def count(table: Table, hands: StoredHands, result: scoring.SessionResult | None = None) -> Tally:
    """Score every hand of the table (``result``: the table scored already, if it was)."""
    if result is None:
        result = score_table(table, [data for _, data, voided, _ in hands if not voided])
    corrected = any(version > 1 or voided for _, _, voided, version in hands)
    time_up = result.end is not None and result.end.reason is scoring.EndReason.TIME
    return Tally(len(hands), len(result.hands), corrected, time_up)


def _of(table: Table, revision: int) -> list[Any]:
    ids = {name: pk for pk, name in table.seated.items()}
    return [revision, table.game, table.options, list(ids.values()), ids.get(table.first)]


def stored(table: Table, tally: Tally, revision: int) -> dict[str, Any]:
    """The tally as kept in ``TableSession.tally``, counted at ``revision``."""
    return {
        "of": _of(table, revision),
        "recorded": tally.recorded,
        "counted": tally.counted,
        "corrected": tally.corrected,
        "time_up": tally.time_up,
    }


def current_tally(table: Table) -> Tally | None:
    """The table's kept tally, or None if it was not counted for the table as it is now."""
    doc = table.tally
    if not doc or doc["of"] != _of(table, table.revision):
        return None
    return Tally(
        doc["recorded"],
        doc["counted"],
        doc["corrected"],
        doc.get("time_up", False),  # kept before tables ended by time
    )
