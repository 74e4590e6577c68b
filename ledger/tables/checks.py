"""What the engine says of a new hand before it is stored: the one place a save asks it.

A save asks once (docs/development.md, "A save"): the table page's form in its ``clean()``
(ledger.tables.forms.HandForm), the API's hand endpoint after its serializer. The service
(services.hand_record) stores what was checked, and asks again only where the table moved
between the check and the table's lock (``Checked.still_holds``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import scoring
from ledger.models import TableSession
from ledger.tables import clock, results, tally

# A result's numbers, stored as the whole numbers the engine read ("١٢", "12 " and 12.0 are 12).
NUMBERS = frozenset(field.key for entry in scoring.Entry for field in entry.fields)


class Checked(NamedTuple):
    """A new hand as the engine found it."""

    entered: dict[str, Any]  # as it was sent, players by name
    stored: dict[str, Any]  # as it is stored, marked as scored, who led it: players by name
    kept: dict[str, Any]  # the same, as the hand's row keeps it: players by id
    played: scoring.HandResult
    why: tuple[scoring.Proof, ...]  # why its proven specials stand (results.proofs)
    end: scoring.End | None  # where a table scored whole stands after it
    revision: int  # the table's revision when it was checked

    def still_holds(self, table: TableSession) -> bool:
        """Nothing the check read has moved since, by ``table`` as read under its lock: no
        hand or end changed (its revision), and its time has not run out meanwhile."""
        last = "last" in clock.marked_last(self.entered, table.ends_at)
        return table.revision == self.revision and last == ("last" in self.stored)


def sent(session: TableSession, number: int | None, data: dict[str, Any]) -> Checked | None:
    """Hand ``number`` as sent (``data``), checked as the table's next hand (``new_hand``);
    None for one the table as read has stored already (another phone's, or this one's sent
    before): nothing is asked of the engine, and the save answers what was stored. Raises
    ScoringError. ``number`` None: checked whatever its number (a preview)."""
    if number is not None and number < (next_number(session) or number):
        return None
    return new_hand(session, data)


def next_number(session: TableSession) -> int | None:
    """The number of the table's next hand, by its tally as read (the hands it counts are
    numbered 1 to ``recorded``); None where the tally was not counted for the table as read:
    it cannot tell."""
    kept = tally.current_tally(session)
    return None if kept is None else kept.recorded + 1


def live_hands(session: TableSession) -> list[tuple[int, dict[str, Any]]]:
    """(pk, data) of every hand that counts, in order, its players by name."""
    live = session.hands.filter(voided=False).order_by("number").values_list("pk", "data")
    return [(pk, session.named(data)) for pk, data in live]


def new_hand(session: TableSession, data: dict[str, Any]) -> Checked:
    """Check ``data`` (players by name) as the table's next hand and settle it. Raises
    ScoringError with every problem the engine finds.

    A hand that says who led and which way is scored on its own: nothing before it can change
    its result, so the 500th save costs what the first did, and nothing is read. At a table
    scored whole the rules decide from every hand that counts, and what they decided is
    stored with the hand."""
    refuse_last(data, "hand")
    marked = clock.marked_last(data, session.ends_at)
    whole = session.scored_whole or "first" not in marked or "direction" not in marked
    hands = [hand for _, hand in live_hands(session)] if whole else []
    try:
        parsed, result = tally.scored(session, [*hands, marked], new=len(hands))
    except scoring.ScoringError as error:
        if not whole:  # the hand's place among the table's, as a whole table's error says
            index = session.hands.filter(voided=False).count()
            error.path = error.path.replace("hands[0]", f"hands[{index}]", 1)
        raise
    played = result.hands[-1]
    if whole:
        marked = {**marked, "first": played.first, "direction": played.direction.value}
    stored = as_stored(marked, played)
    return Checked(
        entered=data,
        stored=stored,
        kept=session.by_id(stored),
        played=played,
        why=results.proofs(parsed, len(hands), played),
        end=result.end if session.scored_whole else None,
        revision=session.revision,
    )


def refuse_last(data: dict[str, Any], path: str) -> None:
    """Which hand is the last is the table's clock's to say, not a phone's or a script's."""
    if "last" in data:
        raise scoring.ScoringError(
            "the ledger marks the last hand by the table's time: leave last out", f"{path}.last"
        )


def as_stored(data: dict[str, Any], played: scoring.HandResult) -> dict[str, Any]:
    """A hand the engine accepted, as it is stored: its numbers as whole numbers, and each
    special its entries prove marked as if it had been entered (RULES.md: what an entry
    proves is applied), so that every page, export and later recount shows and pays it as the
    save did."""
    found: dict[str, dict[str, Any]] = {
        name: {
            key: scoring.whole_number(value) if key in NUMBERS else value
            for key, value in result.items()
        }
        for name, result in data.get("results", {}).items()
    }
    for proof in played.proven:
        result = found[proof.player]
        marked: list[str] = result.get("specials", [])
        found[proof.player] = {**result, "specials": [*marked, proof.special.value]}
    return {**data, "results": found} if found else data
