"""Migration 0035 makes a new table's start key its sender's (issue 45, item 2), on rows of the
schema before it: a table an account started keeps its key as that account's, so the account's
retry still lands on it and another account's same key starts a table of its own; a table
whose sender was not kept answers no one. Backwards, a key two senders sent stays on the first
table only (the key alone is unique again); forwards again, nothing is lost."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.models import TableSession
from ledger.tables import services

# Depends on the database: a migration run on rows of the schema before it, and a unique
# constraint replaced.
pytestmark = pytest.mark.both_databases

BEFORE = ("ledger", "0034_drop_cache_table")
SEATING = ["Anna", "Bob", "Celine"]


def _migrate(target: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _start(key: str, sender: str, owner: User | None = None) -> TableSession:
    return services.session_create(
        game="jie-long",
        options={},
        seating=SEATING,
        first="Anna",
        owner=owner,
        idempotency_key=key,
        sender=sender,
    )


def test_an_account_s_key_stays_its_own_and_a_key_of_no_one_known_answers_no_one(
    transactional_db,
):
    owner, other = User.objects.create_user("owner"), User.objects.create_user("other")
    account, browser = f"account:{owner.pk}", "browser:" + "0" * 64
    mine = _start("key-of-account", account, owner)
    theirs = _start("key-of-browser", browser)
    keyless = _start("", browser, owner)
    try:
        _migrate([BEFORE])  # the rows as the schema before 0035 holds them: no sender
        _migrate()

        senders = dict(TableSession.objects.values_list("pk", "sender"))
        assert senders == {mine.pk: account, theirs.pk: "", keyless.pk: ""}
        assert _start("key-of-account", account, owner).pk == mine.pk  # the account's retry
        assert _start("key-of-account", f"account:{other.pk}", other).pk != mine.pk
        assert _start("key-of-browser", browser).pk != theirs.pk  # its sender was not kept
        assert TableSession.objects.count() == 5

        _migrate([BEFORE])  # two tables hold each key now: the first keeps it
        old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
        keys = list(
            old.get_model("ledger", "TableSession")
            .objects.order_by("pk")
            .values_list("pk", "idempotency_key")
        )
        assert keys[:3] == [
            (mine.pk, "key-of-account"),
            (theirs.pk, "key-of-browser"),
            (keyless.pk, ""),
        ]
        assert [key for _, key in keys[3:]] == ["", ""]

        _migrate()
        assert TableSession.objects.get(pk=mine.pk).sender == account
    finally:
        _migrate()
