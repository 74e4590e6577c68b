"""What the migration tests share: moving the test database between migrations, and rows of an
old schema migrated once for all the tests of a module that only read what came of them.

Taking the database back to an old migration and forward again costs seconds, most of them in
Django rendering each migration's models, so a module migrates its rows once (``once``) and each
test reads them in a transaction of its own, rolled back as a test's always is. A test that
takes the migration back itself migrates rows of its own (``transactional_db``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.apps.registry import Apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: list[tuple[str, str]] | None = None) -> None:
    """The test database at ``target`` (the latest migrations, which the models are, if None)."""
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def models_at(target: tuple[str, str]) -> Apps:
    """The models as they were at ``target``, to write rows of that schema."""
    return MigrationExecutor(connection).loader.project_state([target]).apps


@contextmanager
def once(django_db_blocker: object) -> Iterator[None]:
    """For a module-scoped fixture: its rows are written outside any test's transaction, and
    when the module is done the database is at the latest migrations again and emptied (a
    flush: TRUNCATE on PostgreSQL), as a ``transactional_db`` test leaves it."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        try:
            yield
        finally:
            migrate()
            call_command("flush", interactive=False, verbosity=0)


def every_figure() -> dict[str, object]:
    """Every amount the ledger shows, to compare before and after a migration: each group's
    balances, each tournament's standings, and each table's every export, byte for byte."""
    from ledger.events import selectors as event_selectors
    from ledger.groups import selectors as group_selectors
    from ledger.models import Event, Group, TableSession
    from ledger.tables import exports

    return {
        "balances": {
            group.pk: group_selectors.ledger(group).money for group in Group.objects.all()
        },
        "standings": {
            event.pk: [
                (row.name, row.net, row.points, row.hands_won, row.place)
                for row in event_selectors.standings(event).rows
            ]
            for event in Event.objects.all()
        },
        "exports": {
            (table.pk, kind): b"".join(exports.response(table, kind, words=True).streaming_content)
            for table in TableSession.objects.all()
            for kind in exports.EXPORTS
        },
    }
