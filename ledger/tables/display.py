"""How a table's hands read on a page: a hand as entered, in one line, and the event it
records. The tables' own display, beside what every page shares (ledger.web.display), which
knows no table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.translation import gettext as _

from ledger.tables.stored import specials_of
from ledger.web.display import colon, comma
from ledger.web.games import special_label
from scoring import Entry, HandEvent


class Table(Protocol):
    """A table as the pages show its hands: its game and its seating (a TableSession, or a
    ScoreSheet, whose seating is already a list)."""

    @property
    def game(self) -> str: ...

    @property
    def seating(self) -> list[str]: ...


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
