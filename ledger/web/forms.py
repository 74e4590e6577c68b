"""What every form shares: whole numbers and keys as phones send them, a game's
options, and the engine's messages beside the right field."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import OPTION_SPECS, ScoringError
from scoring.text import Phrase

# Made for each hand a phone submits and each table it starts (the API's Idempotency-Key has the
# same form).
IDEMPOTENCY_KEY = re.compile(r"[\w-]{8,64}", re.ASCII)
# A form that starts a table, sent again with its key asking for another table (a page kept
# from before and changed, say): nothing is started, and the form comes back with a new key.
START_KEY_REUSED = gettext_lazy(
    "This form was already used to start another table: nothing was started."
)
# A whole number as a phone types it: ASCII digits only ("²".isdigit() is true, but int()
# refuses it), and few enough that int() never meets its 4,300-digit limit.
_WHOLE = re.compile(r"[0-9]{1,18}")


def whole_number(text: str | None) -> int | None:
    """The whole number ``text`` spells, or None.

    >>> [whole_number(text) for text in ("12", "²", "-1", "9" * 5000, None)]
    [12, None, None, None, None]
    """
    return int(text) if text is not None and _WHOLE.fullmatch(text) else None


def posted_key(post: Mapping[str, Any]) -> str:
    """The idempotency key a form posted (its hidden ``key``); anything else is no key."""
    key = str(post.get("key", ""))
    return key if IDEMPOTENCY_KEY.fullmatch(key) else ""


def game_options(data: dict[str, Any], names: Iterable[str]) -> dict[str, str]:
    """The options a form set for a game, leaving out those left at their default."""
    return {
        name: data[name].strip()
        for name in names
        if data.get(name, "").strip() and data[name].strip() != OPTION_SPECS[name].default
    }


class OptionFields(forms.Form):
    """A field for each option the engine describes, as typed, before the form's own fields;
    the engine checks them (``game_options`` collects them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        options = {name: forms.CharField(required=False) for name in OPTION_SPECS}
        self.fields = {**options, **self.fields}


def engine_message(error: ScoringError) -> str:
    """The engine's message in the page's language: its template translated, then filled in
    with its params, each ``Phrase`` among them translated the same way first."""
    return _say(error.template, error.params)


def in_page_language(phrase: Phrase) -> str:
    """Words of the engine (a ``Phrase``) in the page's language."""
    return _say(phrase.template, phrase.params)


def _say(template: str, params: Mapping[str, object]) -> str:
    words = {
        key: _say(value.template, value.params) if isinstance(value, Phrase) else value
        for key, value in params.items()
    }
    try:
        return _(template).format(**words) if words else _(template)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        return template.format(**words)
