"""CSV exports of a session, streamed row by row (docs/exports.md lists every column).

UTF-8 with a byte-order mark, so spreadsheet programs open Chinese and Korean names correctly.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import Http404, StreamingHttpResponse

from ledger import selectors
from ledger.models import TableSession
from scoring.document import amount

BOM = "\ufeff"


class _Echo:
    """A file that hands back what is written, for csv.writer to stream through."""

    def write(self, value: str) -> str:
        return value


def hands_rows(view: selectors.ScoredSession) -> Iterator[list[Any]]:
    yield [
        "hand", "voided", "first", "direction", "event", "player", "seat", "turn",
        "score", "specials", "rank", "net",
    ]  # fmt: skip
    for row in view.rows:
        data, result = row.hand.data, row.result
        event = next((e for e in ("redeal", "declared_doubles") if e in data), "")
        event = event or ("blocked" if data.get("blocked") else "")
        for seat, name in enumerate(view.seating, start=1):
            entered = data.get("results", {}).get(name, {})
            if result is not None:
                first, direction = result.first, result.direction.value
                turn = result.order.index(name) + 1
                score = result.scores.get(name, "")
                rank = result.ranking.index(name) + 1 if name in result.ranking else ""
                net: Any = amount(result.net[name])
            else:
                first, direction = data.get("first", ""), data.get("direction", "")
                turn, score, rank, net = "", entered.get("pips", ""), "", ""
            yield [
                row.hand.number, "yes" if row.hand.voided else "", first, direction,
                event, name, seat, turn, score, " ".join(entered.get("specials", [])), rank, net,
            ]  # fmt: skip


def payments_rows(view: selectors.ScoredSession) -> Iterator[list[Any]]:
    yield ["hand", "from", "to", "amount", "multiplier", "reason"]
    for row in view.rows:
        if row.result is None:
            continue
        for p in row.result.payments:
            yield [row.hand.number, p.payer, p.payee, amount(p.amount), p.multiplier, p.reason]


def settle_up_rows(view: selectors.ScoredSession) -> Iterator[list[Any]]:
    yield ["from", "to", "amount"]
    for transfer in view.result.settle_up:
        yield [transfer.payer, transfer.payee, amount(transfer.amount)]


EXPORTS = {"hands": hands_rows, "payments": payments_rows, "settle-up": settle_up_rows}


def _stream(rows: Iterable[list[Any]]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield BOM
    for row in rows:
        yield writer.writerow(row)


def response(session: TableSession, kind: str) -> StreamingHttpResponse:
    rows = EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    view = selectors.scored(session)
    reply = StreamingHttpResponse(_stream(rows(view)), content_type="text/csv; charset=utf-8")
    reply["Content-Disposition"] = f'attachment; filename="table-{session.pk}-{kind}.csv"'
    return reply
