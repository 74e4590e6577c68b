"""What every form shares: whole numbers and plain text as phones type them, a game's
options, and the engine's messages beside the right field."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from ledger.games import OPTION_FIELDS
from scoring import ScoringError

# Made by the phone for each hand it submits (the API's Idempotency-Key has the same form).
IDEMPOTENCY_KEY = re.compile(r"[\w-]{8,64}", re.ASCII)
# A whole number as a phone types it: ASCII digits only ("²".isdigit() is true, but int()
# refuses it), and few enough that int() never meets its 4,300-digit limit.
_WHOLE = re.compile(r"[0-9]{1,18}")


def whole(text: str | None) -> int | None:
    """The whole number ``text`` spells, or None.

    >>> whole("12"), whole("²"), whole("-1"), whole("9" * 5000), whole(None)
    (12, None, None, None, None)
    """
    return int(text) if text is not None and _WHOLE.fullmatch(text) else None


def plain(text: str) -> str:
    """``text`` without control and invisible characters (NUL included)."""
    return "".join(char for char in text if char.isprintable() or char == " ")


def game_options(data: dict[str, Any], names: Iterable[str]) -> dict[str, str]:
    """The options a form set for a game, leaving out those left at their default."""
    return {
        name: data[name].strip()
        for name in names
        if data.get(name, "").strip() and data[name].strip() != OPTION_FIELDS[name].default
    }


class OptionFields(forms.Form):
    """A game's options as typed; the engine checks them (``game_options`` collects them)."""

    stake = forms.CharField(required=False)
    chip = forms.CharField(required=False)
    head_tail = forms.CharField(required=False)
    redeal_doubles = forms.CharField(required=False)
    payment = forms.CharField(required=False)
    next_first = forms.CharField(required=False)


def engine_message(error: ScoringError) -> str:
    """The engine's message in the page's language: its template translated, then filled in."""
    template = _(error.template)
    if template == error.template:
        return error.message
    if not error.params:
        return template
    try:
        return template.format(**error.params)
    except (KeyError, IndexError, ValueError):
        return error.message
