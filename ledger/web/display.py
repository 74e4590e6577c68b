"""How amounts, directions, hands and links read on a page; used by templates and selectors."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from typing import Any, Protocol

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from ledger.tables.money import readable_amount
from ledger.tables.stored import specials_of
from ledger.web.games import special_label
from scoring import Entry, HandEvent
from scoring.document import amount


class Table(Protocol):
    """A table as the pages show its hands: its game and its seating (a TableSession, or a
    ScoreSheet, whose seating is already a list)."""

    @property
    def game(self) -> str: ...

    @property
    def seating(self) -> list[str]: ...


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


def money(value: Decimal | None) -> str:
    """+12, -6.50, 0: signed, exact, no trailing zeros on whole amounts, cents on others
    (a sum PostgreSQL gives as 12.5000 reads +12.50).

    >>> money(Decimal("12.5000")), money(Decimal("-3.0000")), money(Decimal("0.125"))
    ('+12.50', '-3', '+0.125')
    """
    if value is None:
        return ""
    text = str(amount(readable_amount(value)))
    return f"+{text}" if value > 0 else text


def sign(value: Decimal | None) -> str:
    """A CSS class for the sign of an amount."""
    if not value:
        return "zero"
    return "plus" if value > 0 else "minus"


def direction(value: str) -> str:
    return _("counter-clockwise ↺") if str(value) == "ccw" else _("clockwise ↻")


def hand_event(data: Mapping[str, Any]) -> tuple[HandEvent | None, str]:
    """The event a hand as entered records, if any, and who called it ("" if nobody did)."""
    for event in HandEvent:
        if event.has_caller and event in data:
            return event, data[event]
        if not event.has_caller and data.get(event):
            return event, ""
    return None, ""


_ENTRY_KEYS = [tuple(field.key for field in entry.fields) for entry in Entry]


def _entered(result: Mapping[str, Any]) -> str:
    """A player's result as entered: its numbers ("12"; "22/4" for two), or else its tiles."""
    for keys in _ENTRY_KEYS:
        if any(key in result for key in keys):
            return "/".join(str(result.get(key, 0)) for key in keys)
    return " ".join(result.get("tiles", []))


def hand_text(data: dict[str, Any] | None, table: Table) -> str:
    """A hand as entered, in one line: "Anna 0 pass 通, Bob 12, ...", in ``table``'s seating
    order (PostgreSQL's jsonb does not keep the order of keys)."""
    if not data:
        return "—"
    parts = []
    event, caller = hand_event(data)
    if event is not None:
        name = _(event.label)
        parts.append(name + colon() + caller if event.has_caller else name)
    results = data.get("results", {})
    for name in table.seating:
        if name not in results:
            continue
        result = results[name]
        specials = " ".join(special_label(s) for s in specials_of(table.game, result))
        parts.append(f"{name} {_entered(result)}" + (f" {specials}" if specials else ""))
    return comma().join(parts)


def qr_svg(url: str, title: str) -> SafeString:
    """``url`` as a QR code, an inline <svg> drawn here (nothing is fetched from elsewhere),
    named ``title`` for screen readers; ledger.css sizes it."""
    svg = segno.make(url, error="m").svg_inline(border=2, omitsize=True, title=title)
    return mark_safe(svg)  # segno's own markup; it escapes the title
