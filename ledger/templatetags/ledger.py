"""Small filters for showing money, directions and hands (see ledger.display)."""

from __future__ import annotations

from typing import Any

from django import template

from ledger import display
from ledger.games import special_label

register = template.Library()

register.filter("money", display.money)
register.filter("sign", display.sign)
register.filter("direction", display.direction)
register.filter("hand_text", display.hand_text)
register.filter("special", special_label)


@register.filter
def get(mapping: dict[str, Any], key: str) -> Any:
    return mapping.get(key, "")
