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


def download(rows: Iterable[list[Any]], filename: str) -> StreamingHttpResponse:
    reply = StreamingHttpResponse(_stream(rows), content_type="text/csv; charset=utf-8")
    reply["Content-Disposition"] = f'attachment; filename="{filename}"'
    return reply
