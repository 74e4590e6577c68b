"""How amounts, directions and hands read on a page; used by templates and selectors."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from ledger.games import special_label
from scoring.document import amount


def money(value: Decimal | None) -> str:
    """+12, -6.50, 0: signed, exact, no trailing zeros on whole amounts."""
    if value is None:
        return ""
    text = str(amount(value))
    return f"+{text}" if value > 0 else text


def sign(value: Decimal | None) -> str:
    """A CSS class for the sign of an amount."""
    if not value:
        return "zero"
    return "plus" if value > 0 else "minus"


def direction(value: str) -> str:
    return _("counter-clockwise ↺") if str(value) == "ccw" else _("clockwise ↻")


def hand_text(data: dict[str, Any] | None, seating: list[str] | None = None) -> str:
    """A hand as entered, in one line: "Anna 0 pass 通, Bob 12, ...", in seating order.

    (PostgreSQL's jsonb does not keep the order of keys, so the seating gives it.)
    """
    if not data:
        return "—"
    parts = []
    for event in ("redeal", "declared_doubles"):
        if event in data:
            parts.append(f"{special_label(event)}: {data[event]}")
    if data.get("blocked"):
        parts.append(special_label("blocked"))
    results = data.get("results", {})
    for name in seating or list(results):
        if name not in results:
            continue
        result = results[name]
        value = result.get("pips")
        if value is None and "tiles" in result:
            value = " ".join(result["tiles"])
        if value is None:
            value = f"{result.get('large_fish_pips', 0)}/{result.get('small_fish_red', 0)}"
        specials = " ".join(special_label(s) for s in result.get("specials", []))
        parts.append(f"{name} {value}" + (f" {specials}" if specials else ""))
    return ", ".join(parts)
