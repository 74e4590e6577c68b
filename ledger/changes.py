"""What the domains announce when something their live pages show has changed, for whoever
listens: the streams (ledger.web.push, connected in ledger.apps) tell the phones.

Each is sent once the change is committed (``on_commit``), and never for one rolled back. A
receiver is given ids only (0 for none), as keyword arguments.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

table_revised = Signal()
"""A table is at a new revision: a hand saved, corrected or voided, the table locked or its
ends changed, or a group's new table. ``table``, ``revision``, and the ``event`` and ``group``
whose tables it is among."""

event_changed = Signal()
"""An event changed though none of its tables did (an organiser's change): ``event``."""

group_changed = Signal()
"""A group changed though none of its tables did (a payment): ``group``."""


def on_commit(signal: Signal, sender: type, **ids: int) -> None:
    """Send ``signal`` with ``ids`` when the transaction this runs in commits (at once
    outside one)."""
    transaction.on_commit(partial(signal.send, sender, **ids))
