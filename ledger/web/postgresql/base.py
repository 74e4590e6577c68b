"""Django's PostgreSQL backend (psycopg 3), its health check made without a round trip.

With ``CONN_HEALTH_CHECKS`` (settings.py) Django checks a kept connection before the first
query of each request by sending ``SELECT 1``: at an event that is a round trip of every
save, every hand another phone took, every stream opened and every live part rendered, on
top of the queries they need. A connection that sits idle between two requests is sent
nothing by the server unless the server is closing it (a restart, a terminated backend, a
crash: it says why, or the socket simply ends), so here the check asks the socket, not the
server: a connection is usable if it is open and idle and nothing has arrived on it.
Anything else (one in a transaction, or one that errored mid-request) is checked as Django
checks it.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        held: psycopg.Connection[object] | None = self.connection
        if held is None or held.closed or held.broken:
            return False
        if held.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            return bool(super().is_usable())
        # poll, not select: a streams server holds thousands of sockets, and select() cannot
        # watch a descriptor numbered past 1,023
        waiting = select.poll()
        waiting.register(held.fileno(), select.POLLIN)
        return not waiting.poll(0)
