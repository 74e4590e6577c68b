from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.core.management.color import no_style
from django.db import connection

from ledger.models import TableSession
from ledger.tables import services, tally
from tests.tampering import guards_off

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
    }
    post.update({key.replace("_", "-"): value for key, value in fields.items()})
    return post


def stored_hands(table: TableSession) -> tally.StoredHands:
    """(number, data by name, voided, version) of each of the table's hands, as a tally counts
    them."""
    hands = table.hands.order_by("number").values_list("number", "data", "voided", "version")
    return [(number, table.named(data), voided, version) for number, data, voided, version in hands]


def empty_database() -> None:
    """Leave the ledger's tables as empty as a new database's, for a backup restored into it
    (the accounts stay, as an organiser's would in a new database): Django's flush of them,
    a TRUNCATE on PostgreSQL, on SQLite a DELETE of every row behind the guards, which refuse
    a deletion of money or history (migration 0040)."""
    ledger = apps.get_app_config("ledger").get_models(include_auto_created=True)
    flush = connection.ops.sql_flush(no_style(), [model._meta.db_table for model in ledger])
    if connection.vendor != "postgresql":
        with guards_off():
            connection.ops.execute_sql_flush(flush)
        return
    with connection.cursor() as cursor:
        # A TRUNCATE waits for no check the test's transaction queued for its commit: they
        # are made now.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        connection.ops.execute_sql_flush(flush)
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
