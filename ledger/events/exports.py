"""CSV exports of a tournament: standings and settlements (docs/exports.md lists every column)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.http import Http404, StreamingHttpResponse

from ledger.events import selectors
from ledger.models import Event
from ledger.web import exports
from scoring.document import amount


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
            if n in row.rounds:
                table, net = row.rounds[n]
                per_round += ["bye" if table is None else table, amount(net)]
            else:
                per_round += ["", ""]
        yield [
            row.place, row.name, amount(row.net), row.hands_won, row.points, row.hands,
            row.byes, "yes" if row.active else "no", *per_round,
        ]  # fmt: skip


def settlements_rows(event: Event) -> Iterator[list[Any]]:
    yield ["round", "table", "hand", "from", "to", "amount", "multiplier", "reason"]
    for round, table, number, p in selectors.settlements(event):
        yield [round, table, number, p.payer, p.payee, amount(p.amount), p.multiplier, p.reason]


EVENT_EXPORTS = {"standings": standings_rows, "settlements": settlements_rows}


def event_response(event: Event, kind: str, *, words: bool = False) -> StreamingHttpResponse:
    """The event's export ``kind``; with ``words``, its headers in the page's language."""
    rows = EVENT_EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    found = exports.readable(rows(event)) if words else rows(event)
    return exports.download(found, event.name, kind)
