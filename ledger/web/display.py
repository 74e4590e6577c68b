"""How amounts, directions, times and links read on a page, for templates and the domains'
pages (a table's hands read as its own display says: ledger/tables/display.py)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Protocol

import segno
from django.utils import timezone
from django.utils.formats import date_format, number_format, time_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from ledger.amounts import readable_amount
from scoring import GAMES


class Line(Protocol):
    """A table as a list shows it (ledger.groups.selectors.TableLine): its game, seating and
    what each player won there in its unit (money, chips, or points: the total score)."""

    @property
    def game(self) -> str: ...

    @property
    def unit(self) -> str: ...

    @property
    def seating(self) -> list[str]: ...

    @property
    def net(self) -> dict[str, Decimal]: ...

    @property
    def value(self) -> Decimal: ...  # what a chip (or a point) is worth there


def comma() -> str:
    """What separates the items of a list, in the page's language ("，" in Chinese)."""
    return _punctuation(get_language())[0]


def colon() -> str:
    """What comes after a label, in the page's language ("：" in Chinese)."""
    return _punctuation(get_language())[1]


@cache
def _punctuation(language: str | None) -> tuple[str, str]:
    # Looked up once per language: a page of 500 hands asks for them thousands of times.
    return pgettext("between the items of a list", ", "), pgettext("after a label", ": ")


MINUS = "\u2212"  # the minus sign a page shows: "-" is a hyphen, shorter and lower


def entered(value: Decimal) -> str:
    """An amount as a form's field holds it, for a person to send or change: the plain number
    the form parses, whatever the page's language (no sign, no grouping).

    >>> entered(Decimal("332.0000")), entered(Decimal("6.5"))
    ('332', '6.50')
    """
    return str(readable_amount(value))


def money(value: Decimal | None) -> str:
    """+12, \u22126.50, 0: signed, exact, no trailing zeros on whole amounts, cents on others
    (a sum PostgreSQL gives as 12.5000 reads +12.50), thousands as the page's language groups
    them. For reading only: CSV, JSON and form values keep the plain number a program parses.

    >>> money(Decimal("12.5000")), money(Decimal("-3.0000")), money(Decimal("0.125"))
    ('+12.50', '\u22123', '+0.125')
    >>> money(Decimal("-12345.5"))
    '\u221212,345.50'
    """
    if value is None:
        return ""
    text = written(value)
    return f"+{text}" if value > 0 else text


def written(value: Decimal) -> str:
    """An amount or score as the page's language writes it (Django's formats: "1,234.50" in
    English and Korean, "1234.50" in Chinese), with the minus sign, unsigned if positive."""
    return number_format(readable_amount(value), force_grouping=True).replace("-", MINUS)


def figure(value: float | int | Decimal | None, places: int = 0) -> str:
    """A statistic (a rating, a skill, an average score, points) as the page's language writes
    a number, to ``places`` decimals, with the minus sign money has; one that rounds to nothing
    has none.

    >>> figure(-0.2349, 1), figure(1234.5, 2), figure(-0.04, 1), figure(-12)
    ('\u22120.2', '1,234.50', '0.0', '\u221212')
    """
    if value is None:
        return ""
    rounded = round(Decimal(str(value)), places)
    if not rounded:
        rounded = abs(rounded)  # -0.0
    return number_format(rounded, decimal_pos=places, force_grouping=True).replace("-", MINUS)


def in_unit(value: Decimal | int, unit: str) -> str:
    """An amount in a table's unit: money as ``money``, chips signed too ("+12 chips"), points
    as the score they are ("1 point", "\u221212 points"); each plural as the page's language
    counts it.

    >>> in_unit(Decimal("-1"), "chips"), in_unit(Decimal(120), "points"), in_unit(-12, "points")
    ('\u22121 chip', '120 points', '\u221212 points')
    """
    value = Decimal(value)
    if unit == "chips":
        return ngettext("%(n)s chip", "%(n)s chips", _plural(value)) % {"n": money(value)}
    if unit == "points":
        score = written(value)
        return ngettext("%(n)s point", "%(n)s points", _plural(value)) % {"n": score}
    return money(value)


def _plural(value: Decimal) -> int:
    """What chooses a plural form: a whole amount's size; a part of one counts as several
    ("1.5 chips"), as English has it."""
    size = abs(value)
    return int(size) if size == size.to_integral_value() else 2


def sign(value: Decimal | None) -> str:
    """A CSS class for the sign of an amount."""
    if not value:
        return "zero"
    return "plus" if value > 0 else "minus"


def when(moment: datetime) -> SafeString:
    """When a table began, weekday, date and time, in the page's language on the server's
    clock, inside a <time> that ledger.js rewrites in the browser's region and clock."""
    local = timezone.localtime(moment)
    text = pgettext("a table's start: its weekday, date and time", "{weekday} {date}, {time}")
    return format_html(
        '<time datetime="{}" data-when>{}</time>',
        local.isoformat(),
        text.format(
            weekday=date_format(local, "D"),
            date=date_format(local, "SHORT_DATE_FORMAT"),
            time=time_format(local, "TIME_FORMAT"),
        ),
    )


def outcome(line: Line) -> str:
    """How a table came out, in one line: "Anna +120 · Bob \u221240 · ...", the biggest
    winner first (seat order among equals), in the table's unit; for points only, who won.
    Empty before its first hand."""
    played = [name for name in line.seating if name in line.net]
    if not played:
        return ""
    if line.unit == "points":
        best = (max if GAMES[line.game].higher_wins else min)(line.net[n] for n in played)
        names = comma().join(name for name in played if line.net[name] == best)
        return _("Won by %(names)s") % {"names": names}
    ranked = sorted(played, key=lambda name: -line.net[name])
    if line.unit == "chips":
        shown = {name: chips_worth(line.net[name], line.value) for name in ranked}
    else:
        shown = {name: in_unit(line.net[name], line.unit) for name in ranked}
    return " · ".join(f"{name} {shown[name]}" for name in ranked)


class Paid(Protocol):
    """A payment of a group, as a line shows its amount (ledger.groups.models.Payment)."""

    @property
    def amount(self) -> Decimal: ...

    @property
    def chip(self) -> Decimal | None: ...


def paid(payment: Paid) -> str:
    """A payment in chips' amount, unsigned, with the money it is worth: "14 chips (7)"."""
    chips = ngettext("%(n)s chip", "%(n)s chips", _plural(payment.amount))
    worth = written(payment.amount * (payment.chip or Decimal(0)))
    return f"{chips % {'n': written(payment.amount)}} ({worth})"


def chips_worth(count: Decimal, value: Decimal) -> str:
    """Chips with their money beside them, each chip worth ``value``: "+18 chips (+9)".

    >>> chips_worth(Decimal(-18), Decimal("0.75"))
    '\u221218 chips (\u221213.50)'
    """
    return f"{in_unit(count, 'chips')} ({money(count * value)})"


def direction(value: str) -> str:
    return _("counter-clockwise ↺") if str(value) == "ccw" else _("clockwise ↻")


def qr_svg(url: str, title: str) -> SafeString:
    """``url`` as a QR code, an inline <svg> drawn here (nothing is fetched from elsewhere),
    named ``title`` for screen readers; ledger.css sizes it."""
    svg = segno.make(url, error="m").svg_inline(border=2, omitsize=True, title=title)
    return mark_safe(svg)  # segno's own markup; it escapes the title
