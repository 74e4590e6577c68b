"""Migration 0040 (the database refuses any edit of money or history) applies on a database
with rows of every kind it guards, keeps them as they were, and refuses edits of them once
applied; taken back, it leaves them editable as before."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F

from ledger.models import Hand, HandChange, Payment, PaymentVoid, Result, TableChange
from ledger.tables import services
from tests.tables.test_guards import HISTORY, PAYMENTS, RESULTS, play, stored

pytestmark = pytest.mark.postgresql


def _executor() -> MigrationExecutor:
    return MigrationExecutor(connection)


def _guards() -> tuple[str, str]:
    return next(
        key
        for key in _executor().loader.graph.nodes
        if key[0] == "ledger" and key[1].endswith("_insert_only_history")
    )


def _before_guards() -> tuple[str, str]:
    parents = _executor().loader.graph.node_map[_guards()].parents
    return next(parent.key for parent in parents if parent.key[0] == "ledger")


def _migrate(target: list[tuple[str, str]]) -> None:
    executor = _executor()
    executor.migrate(target)


@pytest.fixture
def before(transactional_db):
    """Rows of every kind, made by the services, then the schema taken back to before 0040,
    where an edit still commits (and is undone again). Migrated forward again at the end,
    whatever happens."""
    played = play()
    _migrate([_before_guards()])
    try:
        with transaction.atomic():
            Result.objects.filter(pk=played.anna.pk).update(score=F("score") + 1)
            Result.objects.filter(pk=played.anna.pk).update(score=F("score") - 1)
        yield played
    finally:
        _migrate(_executor().loader.graph.leaf_nodes())


def test_the_migration_keeps_every_row_and_refuses_edits_after_it(before):
    kept = stored()

    _migrate(_executor().loader.graph.leaf_nodes())

    assert stored() == kept
    for match, edit in (
        (RESULTS, lambda: Result.objects.filter(pk=before.anna.pk).update(score=99)),
        (RESULTS, lambda: Result.objects.filter(hand=before.hand).delete()),
        (PAYMENTS, lambda: Payment.objects.filter(pk=before.payment.pk).delete()),
        ("payment voids are insert-only", lambda: PaymentVoid.objects.all().delete()),
        ("insert-only", lambda: HandChange.objects.all().delete()),
        ("insert-only once it has hands", lambda: TableChange.objects.update(after={})),
        (HISTORY, lambda: Hand.objects.filter(pk=before.hand.pk).update(voided=True)),
    ):
        with pytest.raises(IntegrityError, match=match), transaction.atomic():
            edit()
    assert stored() == kept
    # And the services write on, their rows checked at each commit.
    services.hand_void(session=before.table, number=1, version=1)
    assert not Result.objects.filter(hand=before.hand).standing().exists()
