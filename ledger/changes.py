"""What the domains announce when something their live pages show has changed, for whoever
listens: the streams (ledger.web.push, connected in ledger.apps) tell the phones. A table's new
revision is not among them: on PostgreSQL the database announces it (migration 0042), and on
SQLite the streams read it.

Each is sent once the change is committed (``on_commit``), and never for one rolled back. A
receiver is given ids only (0 for none), as keyword arguments.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

event_changed = Signal()
"""An event changed though none of its tables did (an organiser's change): ``event``."""

group_changed = Signal()
"""A group changed though none of its tables did (a payment): ``group``."""

stored = Signal()
"""What a person asked for is stored: a table, tournament or group started, a hand saved,
corrected or voided, a payment recorded or voided, an organiser's change; or found stored by
an earlier send of the same (a retry). No ids. Whatever answers them reads it back after the
commit; should that read fail (the database gone for a moment), the answer must still say it
was stored (ledger.web.views.server_error), never that nothing was: told so, a person enters
it again, and a payment is paid twice. A write says it first in its transaction, before
anything else heard at the commit (an announcement that reads) can fail."""


def stored_on_commit(sender: type) -> None:
    """Send ``stored`` when the transaction this runs in commits (at once outside one: call
    it after an autocommitted write, or on finding one stored before)."""
    on_commit(stored, sender)


def on_commit(signal: Signal, sender: type, **ids: int) -> None:
    """Send ``signal`` with ``ids`` when the transaction this runs in commits (at once
    outside one)."""
    transaction.on_commit(partial(signal.send, sender, **ids))
