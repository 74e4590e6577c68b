"""What the ledger stores, for Django, which looks for an app's models here: each domain's
models live with it (ledger/tables/models.py, ledger/events/models.py, ledger/groups/models.py),
above the players of their circles (ledger/players/models.py), and the limits' counts with them
(ledger/web/models.py).

Money is derived from the hands by ``scoring``; each hand's outcome per player is also kept as
rows (``Result``, ledger/tables/results.py), written in the hand's transaction and always equal
to what ``scoring`` computes, so that sums across tables are the database's work.
"""

from ledger.events.models import Entry, Event, Round, default_tie_breakers
from ledger.groups.models import Group, GroupChange, Payment, PaymentVoid
from ledger.players.models import NAME_LENGTH, TOKEN_BYTES, Claim, Player, game_titles, new_token
from ledger.tables.models import Hand, HandChange, Result, Seat, TableChange, TableSession
from ledger.web.models import LimitCount

__all__ = [
    "NAME_LENGTH",
    "TOKEN_BYTES",
    "Claim",
    "Entry",
    "Event",
    "Group",
    "GroupChange",
    "Hand",
    "HandChange",
    "LimitCount",
    "Payment",
    "PaymentVoid",
    "Player",
    "Result",
    "Round",
    "Seat",
    "TableChange",
    "TableSession",
    "default_tie_breakers",
    "game_titles",
    "new_token",
]
