from __future__ import annotations

from typing import Any

import pytest

from ledger.models import (
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    PaymentVoid,
    Player,
    Result,
    TableSession,
)
from ledger.tables import services, tally

SEATING = ["Anna", "Bob", "Celine", "Dominic"]


@pytest.fixture
def ce_deng(db) -> TableSession:
    return services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")


def plain_hand(first: str = "Anna", direction: str = "ccw", **pips: int) -> dict[str, Any]:
    scores = {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18} | pips
    return {
        "first": first,
        "direction": direction,
        "results": {name: {"pips": value} for name, value in scores.items()},
    }


# How the table page's own form posts: htmx, and the header that asks for an answer in place
# (ledger/tables/views.py, IN_PLACE).
IN_PLACE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "hand-form", "HTTP_X_LEDGER_IN_PLACE": "1"}


def form_post(number: int, first: str = "Anna", direction: str = "ccw", **fields: Any) -> dict:
    """What the table page's form posts for a plain hand, with ``fields`` overriding."""
    post = {
        "number": str(number),
        "first": first,
        "direction": direction,
        "pips-0": "2",
        "pips-1": "12",
        "pips-2": "34",
        "pips-3": "18",
        "action": "save",
        "device": "Anna's phone",
    }
    post.update({key.replace("_", "-"): value for key, value in fields.items()})
    return post


def stored_hands(table: TableSession) -> tally.StoredHands:
    """(number, data by name, voided, version) of each of the table's hands, as a tally counts
    them."""
    hands = table.hands.order_by("number").values_list("number", "data", "voided", "version")
    return [(number, table.named(data), voided, version) for number, data, voided, version in hands]


def empty_database() -> None:
    """Leave the database as empty as a new one, for a backup restored into it: the money
    rows first (result rows, changes, hands, payments), since no table, group or event with
    them can be deleted (ledger.tables.services.table_delete), and the reversals before the
    rows they take back."""
    Result.objects.exclude(reverses=None).delete()
    money = (Result, HandChange, Hand, PaymentVoid, Payment)
    for model in (*money, TableSession, Group, Event, Player):
        model.objects.all().delete()
