"""Django in-process for the benchmarks: a throwaway database, settings as when served."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test.utils import override_settings

from ledger.bench.documents import event_hand
from ledger.models import Hand, HandChange, TableSession
from ledger.tables import services

# The production storage needs collectstatic's manifest; the pages need only the names.
PLAIN_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


@contextmanager
def throwaway_database() -> Iterator[None]:
    """A fresh, migrated SQLite file (WAL, as the embedded setup) in a temporary folder.

    Never the real database: Django's test database machinery points the connection at it and
    back again.
    """
    with tempfile.TemporaryDirectory() as folder:
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder) / "bench.sqlite3")
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            yield
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


def as_served() -> override_settings:
    """Settings as in production (DEBUG off) for requests through Django's test client.

    Not setup_test_environment(): it instruments template rendering and would measure that
    instead of the pages. A save still counts against the write limit, as in production, but
    the limit is raised out of reach: a benchmark saves faster than any table does.
    """
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "writes": "1000000/min"}
    return override_settings(
        STORAGES=PLAIN_STATIC,
        DEBUG=False,
        ALLOWED_HOSTS=["testserver"],
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates},
    )


def store_played(tables: list[TableSession], hands: int) -> None:
    """``hands`` hands of ``documents.event_hand`` at each of ``tables``, straight into the
    database (thousands of saves through the services would only take longer), then counted
    as the services count a change: each table's tally and result rows."""
    Hand.objects.bulk_create(
        Hand(session=table, number=number, data=table.by_id(event_hand(table.seating, number)))
        for table in tables
        for number in range(1, hands + 1)
    )
    HandChange.objects.bulk_create(
        HandChange(hand=hand, kind=HandChange.Kind.RECORD, after=hand.data)
        for hand in Hand.objects.filter(session__in=tables)
    )
    for table in tables:
        services.table_recount(session=table)
