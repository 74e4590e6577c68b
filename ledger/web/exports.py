"""Writing CSV for download: streamed row by row, safe to open in a spreadsheet.

UTF-8 with a byte-order mark, so spreadsheet programs open Chinese and Korean names correctly.
Every row goes through ``_stream``, which keeps names from running as formulas (``_cell``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import StreamingHttpResponse
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.translation import get_language, gettext_lazy

BOM = "\ufeff"


class _Echo:
    """A file that hands back what is written, for csv.writer to stream through."""

    def write(self, value: str) -> str:
        return value


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


# Column headers as a person reads them, in the page's language; a program reads the keys (the
# API's downloads, docs/exports.md).
HEADERS = {
    "hand": gettext_lazy("Hand"),
    "voided": gettext_lazy("Voided"),
    "first": gettext_lazy("Led by"),
    "direction": gettext_lazy("Direction"),
    "event": gettext_lazy("The hand"),
    "player": gettext_lazy("Player"),
    "seat": gettext_lazy("Seat"),
    "turn": gettext_lazy("Turn"),
    "score": gettext_lazy("Score"),
    "specials": gettext_lazy("Specials"),
    "rank": gettext_lazy("Rank"),
    "net": gettext_lazy("Net"),
    "from": gettext_lazy("From"),
    "to": gettext_lazy("To"),
    "amount": gettext_lazy("Amount"),
    "multiplier": gettext_lazy("Multiplier"),
    "reason": gettext_lazy("Reason"),
    "place": gettext_lazy("Place"),
    "points": gettext_lazy("Points"),
    "hands_won": gettext_lazy("Hands won"),
    "end": gettext_lazy("End"),
    "name": gettext_lazy("Name"),
    "hands": gettext_lazy("Hands"),
    "byes": gettext_lazy("Byes"),
    "active": gettext_lazy("Playing"),
    "round": gettext_lazy("Round"),
    "table": gettext_lazy("Table"),
    "option": gettext_lazy("Option"),
    "value": gettext_lazy("Value"),
    "usual": gettext_lazy("Usual"),
    "date": gettext_lazy("Date"),
    "game": gettext_lazy("Game"),
    "unit": gettext_lazy("Unit"),
    "note": gettext_lazy("Note"),
    "money": gettext_lazy("Money"),
    "chips": gettext_lazy("Chips"),
    "chip": gettext_lazy("Chip value"),
    "tables": gettext_lazy("Tables"),
    "won_share": gettext_lazy("Share of hands won"),
    "average_score": gettext_lazy("Average score"),
    "best_table": gettext_lazy("Best table"),
    "best_unit": gettext_lazy("Best table's unit"),
    "best_result": gettext_lazy("Best table's result"),
    "worst_table": gettext_lazy("Worst table"),
    "worst_unit": gettext_lazy("Worst table's unit"),
    "worst_result": gettext_lazy("Worst table's result"),
}


def readable(rows: Iterable[list[Any]]) -> Iterator[list[Any]]:
    """``rows`` with their header row as a person reads it, in the page's language."""
    rows = iter(rows)
    header = next(rows, None)
    if header is not None:
        yield [_header(key) for key in header]
    yield from rows


def _header(key: str) -> str:
    if key in HEADERS:
        return str(HEADERS[key])
    if each_round := _ROUND.fullmatch(key):  # the event standings' "round 2 net"
        return str(HEADERS["round"]) + f" {each_round[1]} " + _header(each_round[2])
    return key


_ROUND = re.compile(r"round (\d+) (\w+)")


def download(rows: Iterable[list[Any]], *words: str) -> StreamingHttpResponse:
    """A CSV download named by ``words`` (what it is: the game, the date, the players, the
    kind), never by a database id, which would tell how big the server is."""
    stream = _in_language(_stream(rows), get_language())
    reply = StreamingHttpResponse(stream, content_type="text/csv; charset=utf-8")
    # An ASCII name for old clients, and the name as written (RFC 6266's filename*) for the rest.
    disposition = content_disposition_header(True, file_name(*words) + ".csv")
    if disposition is not None:  # None only for an inline file without a name
        reply["Content-Disposition"] = disposition
    return reply


def _in_language(lines: Iterator[str], language: str | None) -> Iterator[str]:
    """``lines`` written in ``language``: a download is streamed after its view has returned,
    when the request's language may no longer be the active one."""
    with translation.override(language):
        yield from lines


def file_name(*words: str) -> str:
    """``words`` as one file name any file system takes: joined by "-", without the characters
    Windows, macOS or Linux refuse in a name, or controls, and at most 120 characters.

    >>> file_name("ce-deng", "2026-11-25", "Anna", "Bob/Carl", "李 明", "hands")
    'ce-deng-2026-11-25-Anna-Bob-Carl-李-明-hands'
    """
    text = "-".join(words)
    text = "".join(c if c.isprintable() and c not in _NOT_IN_NAMES else "-" for c in text)
    return re.sub(r"[\s-]+", "-", text).strip("-.")[:120] or "export"


_NOT_IN_NAMES = set('/\\:*?"<>|')
