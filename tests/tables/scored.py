"""A table as the engine scores it from its hands, beside nothing stored: what the readers of
the rows (ledger.tables.selectors.score_sheet) must show, for the tests that hold them equal
to the engine. The ledger itself asks the engine only to preview, save, correct, void and
verify."""

from __future__ import annotations

from ledger.models import TableSession
from ledger.tables import results, selectors, stored, tally


def engine_sheet(session: TableSession) -> selectors.ScoreSheet:
    """Every hand of ``session``, voided ones included, each beside what the engine makes of
    it scored from scratch with the rest (and why its proven specials stand), the engine's
    totals, settle-up and end, and who it says leads next."""
    names = session.seated
    found = session.hands.order_by("number").values_list(*selectors.STORED_FIELDS)
    hands = [
        selectors.StoredHand(pk, number, stored.by_name(data, names), *rest)
        for pk, number, data, *rest in found
    ]
    live = [hand for hand in hands if not hand.voided]
    parsed, result = tally.scored(session, [hand.data for hand in live])
    by_pk = {
        hand.pk: selectors.Row(hand, played, results.proofs(parsed, index, played))
        for index, (hand, played) in enumerate(zip(live, result.hands, strict=True))
    }
    last = result.hands[-1] if result.hands else None
    return selectors.ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[by_pk.get(hand.pk, selectors.Row(hand, None)) for hand in hands],
        result=result,
        next_first=last.next_first if last else session.first,
        next_direction=last.next_direction if last else "ccw",
    )
