"""CSV exports of a session, streamed row by row (docs/exports.md lists every column).

UTF-8 with a byte-order mark, so spreadsheet programs open Chinese and Korean names correctly.
Every row goes through ``_stream``, which keeps names from running as formulas (``_cell``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import Http404, StreamingHttpResponse

from ledger import selectors
from ledger.models import Event, TableSession
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


# What a spreadsheet runs as a formula when a cell begins with it (OWASP, "CSV Injection"),
# and the quote that marks such a cell: a name of its own beginning with one gets another, so
# a reader drops the first quote of every text that has one.
PREFIXED = ("=", "+", "-", "@", "\t", "\r", "'")
# An amount as scoring.document.amount writes it when not whole ("12.50", "-1.50"); a whole
# one it gives as an int.
AMOUNT = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]+")


def _cell(value: Any) -> Any:
    """``value`` as it is safe to write: an amount stays a number, and a text a spreadsheet
    would run (``=1+1``, ``-2+3``, ``@SUM(A1)``) gets a leading ``'``, so it shows as text.

    >>> [_cell(v) for v in (-3, "-1.50", "-2+3", "=1+1", "'Tony", "Anna", "")]
    [-3, '-1.50', "'-2+3", "'=1+1", "''Tony", 'Anna', '']
    """
    if isinstance(value, str) and value.startswith(PREFIXED) and not AMOUNT.fullmatch(value):
        return "'" + value
    return value


def _stream(rows: Iterable[list[Any]]) -> Iterator[str]:
    # The writer quotes a cell holding a comma, a double quote or a line break (and doubles
    # its double quotes), so no name spills into the next cell.
    writer = csv.writer(_Echo())
    yield BOM
    for row in rows:
        yield writer.writerow([_cell(value) for value in row])


def response(session: TableSession, kind: str) -> StreamingHttpResponse:
    rows = EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    return _download(rows(selectors.scored(session)), f"table-{session.pk}-{kind}.csv")


def _download(rows: Iterable[list[Any]], filename: str) -> StreamingHttpResponse:
    reply = StreamingHttpResponse(_stream(rows), content_type="text/csv; charset=utf-8")
    reply["Content-Disposition"] = f'attachment; filename="{filename}"'
    return reply


# -- tournaments -----------------------------------------------------------------------------


def standings_rows(event: Event) -> Iterator[list[Any]]:
    standings = selectors.standings(event)
    rounds = range(1, event.round_set.count() + 1)
    yield [
        "place", "name", "net", "hands_won", "points", "hands", "byes", "active",
        *(f"round {n} {what}" for n in rounds for what in ("table", "net")),
    ]  # fmt: skip
    for row in standings.rows:
        per_round = []
        for n in rounds:
            table, net = row.rounds.get(n, ("", ""))
            per_round += [("bye" if table is None else table), amount(net) if net != "" else ""]
        yield [
            row.place, row.name, amount(row.net), row.hands_won, row.points, row.hands,
            row.byes, "yes" if row.active else "no", *per_round,
        ]  # fmt: skip


def settlements_rows(event: Event) -> Iterator[list[Any]]:
    yield ["round", "table", "hand", "from", "to", "amount", "multiplier", "reason"]
    for round, table, number, p in selectors.settlements(event):
        yield [round, table, number, p.payer, p.payee, amount(p.amount), p.multiplier, p.reason]


EVENT_EXPORTS = {"standings": standings_rows, "settlements": settlements_rows}


def event_response(event: Event, kind: str) -> StreamingHttpResponse:
    rows = EVENT_EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    return _download(rows(event), f"event-{event.pk}-{kind}.csv")
