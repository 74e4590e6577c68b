"""The database refuses any edit of money or history (issue 46, item 2; migration 0040), on
PostgreSQL and SQLite alike, whoever sends it: the ORM's ``update()`` and ``delete()`` and SQL
by hand. Result rows, payments, payment voids and the change records of hands and tables are
insert-only; a hand's scored fields change only with its history, and a void only with its
rows taken back. The services' own writes still go through, and a flush still empties the
database. (Each hand's rows summing to zero at commit: tests/tables/test_balanced.py.)"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Value

from ledger.amounts import AmountField
from ledger.groups import services as group_services
from ledger.models import (
    Hand,
    HandChange,
    Payment,
    PaymentVoid,
    Result,
    TableChange,
    TableSession,
)
from ledger.tables import results, services
from tests.tables.conftest import SEATING, plain_hand
from tests.tampering import guards_off

pytestmark = pytest.mark.both_databases

THREE = ["Anna", "Bob", "Celine"]
RESULTS = "result rows are insert-only"
PAYMENTS = "payments are insert-only"
VOIDS = "payment voids are insert-only"
HAND_CHANGES = "a hand's change records are its history: insert-only"
TABLE_CHANGES = "a table's change records are its history: insert-only once it has hands"
HISTORY = "changes only with its history"
# At commit: PostgreSQL says which hand; SQLite's foreign key to no row fails.
STANDING = (
    "hand .* is voided, yet rows of it stand"
    if connection.vendor == "postgresql"
    else "FOREIGN KEY constraint failed"
)


def money(amount: object) -> Value:
    return Value(Decimal(str(amount)), output_field=AmountField())


def jie_long(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


def play() -> SimpleNamespace:
    """A table with two hands, the second corrected (so reversals stand beside the rows), and
    a change of where it ends; a group with a payment and a voided one."""
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    services.hand_record(session=table, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_correct(session=table, number=2, data=plain_hand(direction="cw"), version=1)
    services.table_ends(session=table, play_to=500, hands=None, ends_at=None)
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=THREE, first="Anna")
    group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="13")
    paid = group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="2")
    group_services.payment_void(payment=paid.payment)
    hand = Hand.objects.get(session=table, number=1)
    return SimpleNamespace(
        table=table,
        group=group,
        hand=hand,
        anna=Result.objects.get(hand=hand, player__name="Anna"),
        bob=Result.objects.get(hand=hand, player__name="Bob"),
        reversal=Result.objects.exclude(reverses=None).first(),
        payment=Payment.objects.get(void=None),
        void=PaymentVoid.objects.get(),
        record=HandChange.objects.filter(hand=hand).get(),
        table_change=TableChange.objects.get(session=table),
    )


@pytest.fixture
def played(db) -> SimpleNamespace:
    return play()


def stored() -> list[list[tuple[object, ...]]]:
    """Every row of money and history, as it stands."""
    return [
        list(model.objects.order_by("pk").values_list())
        for model in (Result, Payment, PaymentVoid, HandChange, TableChange, Hand)
    ]


def sql(statement: str, *params: object) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def refused(match: str, write: Callable[[], object]) -> None:
    """``write`` is refused with ``match``, and nothing of it is stored."""
    before = stored()
    with pytest.raises(IntegrityError, match=match), transaction.atomic():
        write()
    assert stored() == before


# Each edit of a result row, a payment, a void or a change record a reviewer tried.
EDITS: dict[str, tuple[str, Callable[[SimpleNamespace], object]]] = {
    "a row's net, unbalancing its hand": (
        RESULTS,
        lambda p: Result.objects.filter(pk=p.anna.pk).update(net=F("net") + money(1)),
    ),
    "two nets swapped, the hand still balanced": (
        RESULTS,
        lambda p: (
            Result.objects.filter(pk=p.anna.pk).update(net=p.bob.net),
            Result.objects.filter(pk=p.bob.pk).update(net=p.anna.net),
        ),
    ),
    "two nets swapped in one statement": (
        RESULTS,
        lambda p: sql(
            "UPDATE ledger_result SET net = CASE WHEN id = %s THEN %s ELSE %s END "
            "WHERE id IN (%s, %s)",
            p.anna.pk,
            AmountField().get_prep_value(p.bob.net),
            AmountField().get_prep_value(p.anna.net),
            p.anna.pk,
            p.bob.pk,
        ),
    ),
    "a row's score": (RESULTS, lambda p: Result.objects.filter(pk=p.anna.pk).update(score=99)),
    "a row's winner": (RESULTS, lambda p: Result.objects.filter(pk=p.anna.pk).update(won=False)),
    "a row's flows": (
        RESULTS,
        lambda p: Result.objects.filter(pk=p.anna.pk).update(won_from={}),
    ),
    "a row's unit": (
        RESULTS,
        lambda p: Result.objects.filter(hand=p.hand).update(unit=Result.Unit.CHIPS),
    ),
    "a row's specials": (
        RESULTS,
        lambda p: Result.objects.filter(pk=p.anna.pk).update(specials=["pass"]),
    ),
    "a row's player": (
        RESULTS,
        lambda p: Result.objects.filter(pk=p.anna.pk).update(player=p.bob.player),
    ),
    "a reversal unhooked from its row": (
        RESULTS,
        lambda p: Result.objects.filter(pk=p.reversal.pk).update(reverses=None),
    ),
    "a row saved again": (RESULTS, lambda p: Result.objects.get(pk=p.anna.pk).save()),
    "a row deleted": (RESULTS, lambda p: Result.objects.filter(pk=p.anna.pk).delete()),
    "every row of a hand deleted": (
        RESULTS,
        lambda p: Result.objects.filter(hand=p.hand).delete(),
    ),
    "a reversal deleted": (RESULTS, lambda p: Result.objects.filter(pk=p.reversal.pk).delete()),
    "a row's net in SQL": (
        RESULTS,
        lambda p: sql("UPDATE ledger_result SET net = net + 10000 WHERE id = %s", p.anna.pk),
    ),
    "a hand's rows deleted in SQL": (
        RESULTS,
        lambda p: sql("DELETE FROM ledger_result WHERE hand_id = %s", p.hand.pk),
    ),
    "a payment's amount": (
        PAYMENTS,
        lambda p: Payment.objects.filter(pk=p.payment.pk).update(amount=Decimal(1)),
    ),
    "a payment's payer and payee": (
        PAYMENTS,
        lambda p: Payment.objects.filter(pk=p.payment.pk).update(
            payer=p.payment.payee, payee=p.payment.payer
        ),
    ),
    "a payment deleted": (PAYMENTS, lambda p: Payment.objects.filter(pk=p.payment.pk).delete()),
    "a payment in SQL": (
        PAYMENTS,
        lambda p: sql("UPDATE ledger_payment SET amount = 1 WHERE id = %s", p.payment.pk),
    ),
    "every payment deleted in SQL": (PAYMENTS, lambda p: sql("DELETE FROM ledger_payment")),
    "a void's reason": (
        VOIDS,
        lambda p: PaymentVoid.objects.filter(pk=p.void.pk).update(reason="never mind"),
    ),
    "a void deleted (the payment counting again)": (
        VOIDS,
        lambda p: PaymentVoid.objects.filter(pk=p.void.pk).delete(),
    ),
    "a void moved to another payment": (
        VOIDS,
        lambda p: sql(
            "UPDATE ledger_paymentvoid SET payment_id = %s WHERE id = %s", p.payment.pk, p.void.pk
        ),
    ),
    "a void deleted in SQL": (VOIDS, lambda p: sql("DELETE FROM ledger_paymentvoid")),
    "a hand's record rewritten": (
        HAND_CHANGES,
        lambda p: HandChange.objects.filter(pk=p.record.pk).update(after={}),
    ),
    "a hand's record deleted": (
        HAND_CHANGES,
        lambda p: HandChange.objects.filter(pk=p.record.pk).delete(),
    ),
    "a hand's records deleted in SQL": (
        HAND_CHANGES,
        lambda p: sql("DELETE FROM ledger_handchange WHERE hand_id = %s", p.hand.pk),
    ),
    "a table's change rewritten": (
        TABLE_CHANGES,
        lambda p: TableChange.objects.filter(pk=p.table_change.pk).update(after={}),
    ),
    "a table's change deleted": (
        TABLE_CHANGES,
        lambda p: TableChange.objects.filter(pk=p.table_change.pk).delete(),
    ),
    "a table's changes deleted in SQL": (
        TABLE_CHANGES,
        lambda p: sql("DELETE FROM ledger_tablechange"),
    ),
}


@pytest.mark.parametrize("edit", EDITS)
def test_an_edit_of_money_or_history_is_refused_and_changes_nothing(played, edit):
    match, write = EDITS[edit]
    refused(match, lambda: write(played))


@pytest.mark.django_db(transaction=True)
def test_an_edit_is_refused_outside_a_transaction_too():
    # Each statement its own transaction, as psql or the sqlite3 shell sends it.
    played = play()
    before = stored()

    with pytest.raises(IntegrityError, match=RESULTS):
        sql("UPDATE ledger_result SET score = 99 WHERE id = %s", played.anna.pk)
    with pytest.raises(IntegrityError, match=PAYMENTS):
        sql("DELETE FROM ledger_payment WHERE id = %s", played.payment.pk)

    assert stored() == before


def new_data(played: SimpleNamespace) -> dict:
    return played.table.by_id(plain_hand(Anna=20, Bob=2))


def record(played: SimpleNamespace, kind: str, after: dict | None = None) -> HandChange:
    return HandChange.objects.create(hand=played.hand, kind=kind, after=after)


def hand(played: SimpleNamespace):
    return Hand.objects.filter(pk=played.hand.pk)


# A hand's scored fields changed without its history, or with a history that says otherwise.
HAND_EDITS: dict[str, tuple[str, Callable[[SimpleNamespace], object]]] = {
    "voided, nothing else": (HISTORY, lambda p: hand(p).update(voided=True)),
    "voided, its version raised, no record": (
        HISTORY,
        lambda p: hand(p).update(voided=True, version=F("version") + 1),
    ),
    "its data, nothing else": (HISTORY, lambda p: hand(p).update(data=new_data(p))),
    "its data and version, no record": (
        HISTORY,
        lambda p: hand(p).update(data=new_data(p), version=F("version") + 1),
    ),
    "its data, with a record of something else": (
        "does not say what it became",
        lambda p: (
            record(p, HandChange.Kind.CORRECT, after=p.hand.data),
            hand(p).update(data=new_data(p), version=F("version") + 1),
        ),
    ),
    "its data, its version raised by two": (
        HISTORY,
        lambda p: (
            record(p, HandChange.Kind.CORRECT, after=new_data(p)),
            record(p, HandChange.Kind.CORRECT, after=new_data(p)),
            hand(p).update(data=new_data(p), version=F("version") + 2),
        ),
    ),
    "voided under a correction's record": (
        "a void changes nothing else",
        lambda p: (
            record(p, HandChange.Kind.CORRECT, after=p.hand.data),
            hand(p).update(voided=True, version=F("version") + 1),
        ),
    ),
    "voided and its data changed": (
        "a void changes nothing else",
        lambda p: (
            record(p, HandChange.Kind.VOID),
            hand(p).update(voided=True, data=new_data(p), version=F("version") + 1),
        ),
    ),
    "its version alone": (HISTORY, lambda p: hand(p).update(version=F("version") + 1)),
    "moved to another table": (
        "a hand keeps its table and its number",
        lambda p: hand(p).update(
            session=services.session_create(
                game="ce-deng", options={"stake": "100"}, seating=SEATING, first="Anna"
            )
        ),
    ),
    "renumbered": (
        "a hand keeps its table and its number",
        lambda p: hand(p).update(number=99),
    ),
    "voided in SQL": (
        HISTORY,
        lambda p: sql("UPDATE ledger_hand SET voided = TRUE WHERE id = %s", p.hand.pk),
    ),
    "its data in SQL": (
        HISTORY,
        lambda p: sql(
            "UPDATE ledger_hand SET data = '{}', version = version + 1 WHERE id = %s", p.hand.pk
        ),
    ),
}


@pytest.mark.parametrize("edit", HAND_EDITS)
def test_a_hand_s_scored_fields_do_not_change_without_its_history(played, edit):
    match, write = HAND_EDITS[edit]
    refused(match, lambda: write(played))


def test_a_voided_hand_changes_no_more(played):
    services.hand_void(session=played.table, number=1, version=1)

    refused(
        "changes no more",
        lambda: (
            record(played, HandChange.Kind.CORRECT, after=played.hand.data),
            hand(played).update(voided=False, version=F("version") + 1),
        ),
    )


def test_what_a_hand_is_not_scored_by_changes_freely(played):
    # Where it was saved from and when: not what it pays.
    hand(played).update(device="Bob's phone", idempotency_key="again")

    assert hand(played).get().device == "Bob's phone"


@pytest.mark.django_db(transaction=True)
def test_a_void_by_hand_with_its_record_but_its_rows_standing_is_refused_at_commit():
    played = play()
    before = stored()

    with pytest.raises(IntegrityError, match=STANDING), transaction.atomic():
        record(played, HandChange.Kind.VOID)
        hand(played).update(voided=True, version=F("version") + 1)

    assert stored() == before


@pytest.mark.django_db(transaction=True)
def test_a_void_by_hand_with_its_record_and_its_rows_taken_back_commits():
    # The database holds the ledger's shape, not who wrote it: ledger_verify compares the rows
    # with the engine.
    played = play()

    with transaction.atomic():
        record(played, HandChange.Kind.VOID)
        hand(played).update(voided=True, version=F("version") + 1)
        Result.objects.bulk_create(
            results.reversal(row) for row in Result.objects.filter(hand=played.hand)
        )

    assert hand(played).get().voided
    assert not Result.objects.filter(hand=played.hand).standing().exists()


@pytest.mark.django_db(transaction=True)
def test_the_services_record_correct_void_pay_and_end_through_the_guards():
    # Each its own committed transaction, so every check at commit is made.
    table = services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")
    for number in (1, 2, 3):
        services.hand_record(session=table, number=number, data=jie_long(2, 12, 20 + number))
    services.hand_correct(session=table, number=2, data=jie_long(5, 9, 21), version=1)
    services.hand_void(session=table, number=3, version=1)
    services.table_ends(session=table, play_to=500, hands=None, ends_at=None)
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=THREE, first="Anna")
    paid = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="13")
    group_services.payment_void(payment=paid.payment)

    hands = table.hands.order_by("number")
    assert [(hand.version, hand.changes.count()) for hand in hands] == [(1, 1), (2, 2), (2, 2)]
    assert not Result.objects.filter(hand__number=3).standing().exists()
    assert TableChange.objects.count() == PaymentVoid.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_table_with_no_hands_goes_with_its_changes_one_with_hands_keeps_them():
    mistaken = services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")
    services.table_ends(session=mistaken, play_to=30, hands=None, ends_at=None)
    kept = play()

    services.table_delete(session=mistaken)

    assert not TableSession.objects.filter(pk=mistaken.pk).exists()
    assert list(TableChange.objects.all()) == [kept.table_change]


@pytest.mark.django_db(transaction=True)
def test_a_flush_empties_the_database_and_leaves_the_guards_standing():
    play()

    call_command("flush", interactive=False, verbosity=0)

    assert all(rows == [] for rows in stored())
    played = play()
    refused(RESULTS, lambda: Result.objects.filter(pk=played.anna.pk).delete())
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            assert cursor.execute("SELECT count(*) FROM ledger_guards_off").fetchone() == (0,)


def test_behind_the_guards_a_test_writes_what_it_needs_and_then_they_stand_again(played):
    with guards_off():
        Result.objects.filter(pk=played.anna.pk).update(score=99)
        hand(played).update(voided=True)
    with pytest.raises(ZeroDivisionError), guards_off():
        Payment.objects.filter(pk=played.payment.pk).delete()
        1 / 0  # noqa: B018 - a test's mistake inside: the block's writes go, the guards stand

    assert Result.objects.get(pk=played.anna.pk).score == 99
    assert Payment.objects.filter(pk=played.payment.pk).exists()
    refused(RESULTS, lambda: Result.objects.filter(pk=played.anna.pk).update(score=98))


# Every guard, by the name the database knows it by: a later migration that rebuilds one of
# these tables on SQLite (as Django's schema editor does for most changes of a field) drops
# its triggers, and must make them again.
GUARDS = {
    "postgresql": {
        ("ledger_result", "ledger_result_insert_only"),
        ("ledger_result", "ledger_result_balanced"),
        ("ledger_payment", "ledger_payment_insert_only"),
        ("ledger_paymentvoid", "ledger_paymentvoid_insert_only"),
        ("ledger_handchange", "ledger_handchange_insert_only"),
        ("ledger_tablechange", "ledger_tablechange_insert_only"),
        ("ledger_groupchange", "ledger_groupchange_insert_only"),
        ("ledger_hand", "ledger_hand_with_history"),
        ("ledger_hand", "ledger_hand_in_place"),
        ("ledger_hand", "ledger_hand_voided_settled"),
    },
    "sqlite": {
        *(
            (table, f"{table}_no_{event}")
            for table in (
                "ledger_result",
                "ledger_payment",
                "ledger_paymentvoid",
                "ledger_handchange",
                "ledger_tablechange",
                "ledger_groupchange",
            )
            for event in ("update", "delete")
        ),
        ("ledger_result", "ledger_result_settles"),
        ("ledger_result", "ledger_result_within_64_bits"),
        ("ledger_hand", "ledger_hand_with_history"),
        ("ledger_hand", "ledger_hand_in_place"),
        ("ledger_hand", "ledger_hand_voided_settles"),
    },
}


def test_every_guard_stands_after_the_migrations(db):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgrelid::regclass::text, tgname FROM pg_trigger "
                "WHERE NOT tgisinternal AND tgenabled = 'O'"
            )
        else:
            cursor.execute("SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger'")
        found = set(cursor.fetchall())

    assert found >= GUARDS[connection.vendor]
