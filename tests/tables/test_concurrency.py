"""Phones saving at the same moment, on a real database with real threads."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier, Event

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger.models import Hand, HandChange, Result, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

# Depends on the database: phones saving at the same moment: PostgreSQL's row locks, SQLite's one
# writer at a time.
pytestmark = pytest.mark.both_databases

PHONES = 50
SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT")  # the test's own transaction's


def _at_once(count, work):
    """Run ``work(i)`` in ``count`` threads released together; return results or errors."""
    start = Barrier(count)

    def run(i):
        start.wait()
        try:
            return work(i)
        except Exception as error:  # noqa: BLE001 - every outcome is counted by the test
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


@pytest.mark.django_db(transaction=True)
def test_fifty_phones_saving_the_same_hand_store_exactly_one():
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")

    outcomes = _at_once(
        PHONES,
        lambda i: services.hand_record(
            session=session, number=1, data=plain_hand(Anna=2 + 2 * (i % 3)), device=f"phone {i}"
        ),
    )

    stored = [o for o in outcomes if isinstance(o, services.Recorded)]
    told = [o for o in outcomes if isinstance(o, services.HandAlreadyRecorded)]
    errors = [
        o for o in outcomes if not isinstance(o, services.Recorded | services.HandAlreadyRecorded)
    ]
    assert (len(stored), len(told), errors) == (1, PHONES - 1, [])
    assert Hand.objects.count() == 1 and HandChange.objects.count() == 1
    assert {o.hand.pk for o in told} == {stored[0].hand.pk}  # each was shown the stored hand
    # ...as the table's last, whether found before the table's lock or under it: each is
    # answered from it alone (selectors.after_taken)
    assert all(o.last for o in told)


@pytest.mark.django_db(transaction=True)
def test_fifty_retries_of_one_submission_store_it_once_and_all_get_its_result():
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")

    outcomes = _at_once(
        PHONES,
        lambda i: services.hand_record(
            session=session, number=1, data=plain_hand(), idempotency_key="same-submission"
        ),
    )

    assert all(isinstance(o, services.Recorded) for o in outcomes), outcomes
    assert len({o.hand.pk for o in outcomes}) == 1
    assert sum(not o.replayed for o in outcomes) == 1
    assert Hand.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hand_sent_while_the_organiser_locks_the_table_is_refused_once_the_lock_is_in():
    # The organiser's lock is written and not yet committed when a phone's save starts: the
    # save must wait for it and then see it (on PostgreSQL, the row lock; SQLite lets one
    # writer in at a time), never store a hand the organiser has just locked out.
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    locking, saving = Event(), Event()

    def organiser():
        with transaction.atomic():
            TableSession.objects.filter(pk=session.pk).update(locked=True)
            locking.set()
            saving.wait(5)
            time.sleep(0.5)  # the phone's save is under way meanwhile
        connection.close()

    def phone():
        locking.wait(5)
        saving.set()
        try:
            return services.hand_record(session=session, number=1, data=plain_hand())
        except Exception as error:  # noqa: BLE001 - the test looks at what happened
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        lock = pool.submit(organiser)
        outcome = pool.submit(phone).result()
        lock.result()

    assert isinstance(outcome, services.TableLocked), outcome
    assert not Hand.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_hand_already_stored_is_answered_at_once_while_another_save_holds_the_table():
    # When a table's phones all press save, the first stores the hand and the others are told
    # so: they must not queue behind the table's lock (held here by a slow save of the next
    # hand), and a retry of the stored submission gets its result the same way.
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    first = services.hand_record(
        session=session, number=1, data=plain_hand(), idempotency_key="first-phone"
    )
    holding, done = Event(), Event()

    def slow_save():
        with transaction.atomic():
            TableSession.objects.select_for_update().get(pk=session.pk)
            holding.set()
            done.wait(10)
        connection.close()

    def answered():
        holding.wait(5)
        started = time.monotonic()
        try:
            services.hand_record(session=session, number=1, data=plain_hand(Anna=4))
        except services.HandAlreadyRecorded as taken:
            other = taken.hand
        again = services.hand_record(
            session=session, number=1, data=plain_hand(), idempotency_key="first-phone"
        )
        took = time.monotonic() - started
        done.set()
        connection.close()
        return other, again, took

    with ThreadPoolExecutor(max_workers=2) as pool:
        held = pool.submit(slow_save)
        other, again, took = pool.submit(answered).result()
        held.result()

    assert other.pk == first.hand.pk
    assert again.replayed and again.hand.pk == first.hand.pk
    assert took < 2  # the slow save held the table for up to 10 s


@pytest.mark.django_db(transaction=True)
def test_a_save_that_waited_for_its_table_s_lock_finds_the_hand_stored_meanwhile():
    # A save reads what was stored once more after it took its table's lock: that read must
    # see a hand that another save committed while this one waited for the lock.
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    holding = Event()

    def first_phone():
        with transaction.atomic():
            TableSession.objects.select_for_update().get(pk=session.pk)
            holding.set()
            time.sleep(0.5)  # the other phone's save waits for the lock meanwhile
            services.hand_record(session=session, number=1, data=plain_hand())
        connection.close()

    def waiting_phone():
        holding.wait(5)
        started = time.monotonic()
        try:
            services.hand_record(
                session=session, number=1, data=plain_hand(), idempotency_key="another key"
            )
        except services.HandAlreadyRecorded as taken:
            return taken, time.monotonic() - started
        finally:
            connection.close()
        raise AssertionError("hand 1 was saved twice")

    with ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(first_phone)
        taken, waited = pool.submit(waiting_phone).result()
        first.result()

    assert waited > 0.3  # it did wait for the lock
    assert taken.hand.number == 1 and taken.last  # hand 1, and no hand after it
    assert Hand.objects.filter(session=session).count() == 1
    assert TableSession.objects.get(pk=session.pk).revision == 1  # as the first save left it


@pytest.mark.django_db
def test_under_its_table_s_lock_a_save_reads_what_was_stored_and_writes_its_rows():
    # Every phone of a table presses save at once: all but the first wait on the table's lock
    # while the first holds it, so each query under it costs them all.
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    with CaptureQueriesContext(connection) as sent:
        services.hand_record(session=session, number=1, data=plain_hand())
    queries = [q["sql"] for q in sent.captured_queries if not q["sql"].startswith(SAVEPOINTS)]
    table = TableSession._meta.db_table
    by_id = f'FROM "{table}" WHERE "{table}"."id" ='
    lock = next(i for i, sql in enumerate(queries) if by_id in sql)
    under = queries[lock:]
    # the lock's read, which also reads the number of the table's newest hand; then the writes
    assert len(under) == 5
    if connection.vendor == "postgresql":
        assert under[0].endswith("FOR UPDATE")  # SQLite lets one writer in at a time
    read, written = under[0], " ".join(under[1:])
    assert f'FROM "{Hand._meta.db_table}"' in read  # what was stored, read under the lock
    # the hand, its change and its results written, the table's revision raised; its streams
    # are told by the database when it commits, with no statement of the app's (migration 0042)
    assert all(f'INSERT INTO "{m._meta.db_table}"' in written for m in [Hand, HandChange, Result])
    assert f'UPDATE "{table}" SET "revision"' in written
    assert "pg_notify" not in written
    assert list(Result.objects.filter(hand__number=1).values_list("net", flat=True))
