"""What is announced once a change is committed, never before and never for one rolled back,
and how it reaches every server process (ledger.web.push). A table's new revision PostgreSQL
announces itself (migration 0042's trigger); an event's or group's own change its domain
announces (ledger/changes.py), and the process sends it on. On SQLite each process reads the
changes itself (tests/tables/test_streams.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger import changes
from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Group, TableSession
from ledger.tables import services
from ledger.web import push
from tests.events.test_events import TWELVE, play
from tests.groups.test_pages import THREE
from tests.tables.conftest import SEATING, plain_hand

SIGNALS = {changes.event_changed: "event changed", changes.group_changed: "group changed"}


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


@pytest.fixture
def listening(transactional_db: None) -> Iterator[Callable[[], list[str]]]:
    """What another server process hears: a connection of its own that LISTENs, as the
    streams' (ledger.web.push). Call it for the payloads delivered since it was last called."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no NOTIFY: its streams read the revisions (test_streams.py)")
    params = push.listener_params(connection.settings_dict)
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {push.CHANNEL}")

        def delivered() -> list[str]:
            return [notice.payload for notice in listener.notifies(timeout=0.3)]

        yield delivered


def test_a_group_payment_and_an_organisers_change_are_announced_once_committed(
    db, heard, django_capture_on_commit_callbacks
):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=THREE, first="Anna")  # its players
    event = event_services.event_create(name="Club night", game="jie-long", options={}, rounds=2)
    with django_capture_on_commit_callbacks() as on_commit:
        group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="5")
        event_services.entry_add(event=event, name="Anna", organiser=True)

    assert heard == []  # nothing before the commit
    for callback in on_commit:
        callback()
    assert heard == [("group changed", {"group": group.pk}), ("event changed", {"event": event.pk})]


def test_a_change_rolled_back_is_never_announced(db, heard, django_capture_on_commit_callbacks):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=THREE, first="Anna")
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="5")
        raise RuntimeError("the request failed after the save")

    assert heard == []


@pytest.mark.both_databases  # PostgreSQL's NOTIFY, or nothing sent on SQLite
def test_the_streams_tell_every_server_process_by_notify_on_postgresql(db):
    with CaptureQueriesContext(connection) as sent:
        changes.event_changed.send(TableSession, event=2)
        changes.group_changed.send(Group, group=5)

    notified = [query["sql"] for query in sent.captured_queries if "pg_notify" in query["sql"]]
    if connection.vendor == "postgresql":
        assert len(notified) == 2
        assert "'0 0 2 0'" in notified[0] and "'0 0 0 5'" in notified[1]
    else:
        assert notified == []


@pytest.mark.postgresql
def test_postgresql_announces_a_tables_revision_when_it_commits(listening):
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    with CaptureQueriesContext(connection) as sent, transaction.atomic():
        services.hand_record(session=table, number=1, data=plain_hand())
        services.hand_void(session=table, number=1, version=1)
        assert listening() == []  # nothing before the commit

    assert listening() == [f"{table.pk} 1 0 0", f"{table.pk} 2 0 0"]
    assert not [query for query in sent.captured_queries if "notify" in query["sql"].lower()]


@pytest.mark.postgresql
def test_postgresql_never_announces_a_revision_rolled_back(listening):
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.hand_record(session=table, number=1, data=plain_hand())
        raise RuntimeError("the request failed after the save")

    assert listening() == []
    # whoever raises a revision announces it, the app or not
    TableSession.objects.filter(pk=table.pk).update(revision=7)
    assert listening() == [f"{table.pk} 7 0 0"]


@pytest.mark.postgresql
def test_postgresql_announces_a_groups_new_table_and_an_events_table_with_them(listening):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    listening()
    started = group_services.table_start(group=group, seating=THREE, first="Anna")
    assert listening() == [f"{started.pk} 0 0 {group.pk}"]  # the group's page lists it

    event = event_services.event_create(name="Club night", game="jie-long", options={}, rounds=2)
    for name in TWELVE:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_begin(round=event_services.round_seat(event=event))
    listening()  # the event's own changes, which the process announces
    table = TableSession.objects.filter(round__event=event).earliest("table_number")
    play(table, 2, 12, 20, 30)
    assert listening() == [f"{table.pk} 1 {event.pk} 0"]
