"""The Django admin, which looks for it here: every model shown, nothing of the ledger's money
changed around its services. Hands, their changes, result rows and payments are read only; a
hand is corrected (a form here) or voided, a payment voided (actions on their lists), through
the same services the pages and the API call, so each keeps its history. A table's game,
options and seats change here only until its first hand; a table, group or tournament with
money is kept. Each domain's admin lives with it (ledger/tables/admin.py,
ledger/events/admin.py, ledger/groups/admin.py, ledger/players/admin.py), on what they share
(ledger/web/admin.py): importing them here registers their models."""

from ledger.events.admin import EntryAdmin, EventAdmin, RoundAdmin
from ledger.groups.admin import GroupAdmin, PaymentAdmin, PaymentVoidAdmin
from ledger.players.admin import PlayerAdmin
from ledger.tables.admin import (
    HandAdmin,
    HandChangeAdmin,
    ResultAdmin,
    SeatAdmin,
    TableChangeAdmin,
    TableSessionAdmin,
)

__all__ = [
    "EntryAdmin",
    "EventAdmin",
    "GroupAdmin",
    "HandAdmin",
    "HandChangeAdmin",
    "PaymentAdmin",
    "PaymentVoidAdmin",
    "PlayerAdmin",
    "ResultAdmin",
    "RoundAdmin",
    "SeatAdmin",
    "TableChangeAdmin",
    "TableSessionAdmin",
]
