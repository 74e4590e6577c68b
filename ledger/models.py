"""What the ledger stores, for Django, which looks for an app's models here: each domain's
models live with it (ledger/tables/models.py, ledger/events/models.py).

Money is derived from the hands by ``scoring``; each hand's outcome per player is also kept as
rows (``Result``, ledger/tables/results.py), written in the hand's transaction and always equal
to what ``scoring`` computes, so that sums across tables are the database's work.
Migrations name ``game_titles``, ``new_token`` and ``default_tie_breakers`` from here.
"""

from ledger.events.models import Entry, Event, Round, default_tie_breakers
from ledger.groups.models import Group, Payment, PaymentVoid
from ledger.tables.models import (
    NAME_LENGTH,
    TOKEN_BYTES,
    Hand,
    HandChange,
    Player,
    Result,
    Seat,
    TableSession,
    game_titles,
    new_token,
)

__all__ = [
    "NAME_LENGTH",
    "TOKEN_BYTES",
    "Entry",
    "Event",
    "Group",
    "Hand",
    "HandChange",
    "Payment",
    "PaymentVoid",
    "Player",
    "Result",
    "Round",
    "Seat",
    "TableSession",
    "default_tie_breakers",
    "game_titles",
    "new_token",
]
