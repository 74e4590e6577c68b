"""What the domains announce once a change is committed (ledger/changes.py), never before and
never for one rolled back, and how the streams pass it on to every server process
(ledger.web.push: PostgreSQL's NOTIFY; on SQLite each process reads the changes itself)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger import changes
from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Group, TableSession
from ledger.tables import services
from tests.events.test_events import TWELVE, play
from tests.groups.test_pages import THREE
from tests.tables.conftest import SEATING, plain_hand

SIGNALS = {
    changes.table_revised: "table revised",
    changes.event_changed: "event changed",
    changes.group_changed: "group changed",
}


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What the domains announce, as a receiver hears it."""
    heard: list[tuple[str, dict[str, Any]]] = []

    def receiver(signal: Any, sender: type, **ids: int) -> None:
        heard.append((SIGNALS[signal], ids))

    for signal in SIGNALS:
        signal.connect(receiver, dispatch_uid="tests")
    yield heard
    for signal in SIGNALS:
        signal.disconnect(dispatch_uid="tests")


def test_a_saved_hand_is_announced_once_its_transaction_commits(
    db, heard, django_capture_on_commit_callbacks
):
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    with django_capture_on_commit_callbacks() as on_commit:
        services.hand_record(session=table, number=1, data=plain_hand())
        services.hand_void(session=table, number=1, version=1)

    assert heard == []  # nothing before the commit
    for callback in on_commit:
        callback()
    assert heard == [
        ("table revised", {"table": table.pk, "revision": 1, "event": 0, "group": 0}),
        ("table revised", {"table": table.pk, "revision": 2, "event": 0, "group": 0}),
    ]


def test_a_change_rolled_back_is_never_announced(db, heard, django_capture_on_commit_callbacks):
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.hand_record(session=table, number=1, data=plain_hand())
        raise RuntimeError("the request failed after the save")

    assert heard == []


def test_a_groups_new_table_and_payment_are_announced_for_its_stream(
    db, heard, django_capture_on_commit_callbacks
):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    with django_capture_on_commit_callbacks(execute=True):
        table = group_services.table_start(group=group, seating=THREE, first="Anna")
        group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="5")

    assert heard == [
        ("table revised", {"table": table.pk, "revision": 0, "event": 0, "group": group.pk}),
        ("group changed", {"group": group.pk}),
    ]


def test_an_events_table_and_organisers_change_are_announced_for_its_stream(
    db, heard, django_capture_on_commit_callbacks
):
    event = event_services.event_create(name="Club night", game="jie-long", options={}, rounds=2)
    for name in TWELVE:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_begin(round=event_services.round_seat(event=event))
    table = TableSession.objects.filter(round__event=event).earliest("table_number")
    with django_capture_on_commit_callbacks(execute=True):
        play(table, 2, 12, 20, 30)
        event_services.entry_drop(event=event, name=TWELVE[0])

    assert heard == [
        ("table revised", {"table": table.pk, "revision": 1, "event": event.pk, "group": 0}),
        ("event changed", {"event": event.pk}),
    ]


@pytest.mark.both_databases  # PostgreSQL's NOTIFY, or nothing sent on SQLite
def test_the_streams_tell_every_server_process_by_notify_on_postgresql(db):
    with CaptureQueriesContext(connection) as sent:
        changes.table_revised.send(TableSession, table=7, revision=3, event=2, group=0)
        changes.group_changed.send(Group, group=5)

    notified = [query["sql"] for query in sent.captured_queries if "pg_notify" in query["sql"]]
    if connection.vendor == "postgresql":
        assert len(notified) == 2
        assert "'7 3 2 0'" in notified[0] and "'0 0 0 5'" in notified[1]
    else:
        assert notified == []
