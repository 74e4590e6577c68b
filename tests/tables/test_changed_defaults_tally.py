"""A table stored before Kko-li-but-i-gi's payment defaulted to "highest" keeps the tally it
counted (migration 0008 writes in the "each" it was played under, and the tally with it). Its own
module: it migrates rows of its own, which test_changed_defaults.py's rows, migrated once for
that module, would collide with in the schema before players had a table of their own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.models import TableSession
from ledger.tables import services, tally
from tests.tables.conftest import SEATING, plain_hand
from tests.tables.test_changed_defaults import BEFORE

pytestmark = pytest.mark.postgresql


def test_a_kept_tally_stays_current_for_the_options_written_in(transactional_db):
    # Made by today's code, then taken back to the schema before the change and stored as
    # it was then: options unsaid, and the tally counted for them.
    table = services.session_create(game="kkoribuchigi", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        old = executor.loader.project_state([BEFORE]).apps.get_model("ledger", "TableSession")
        counted = old.objects.get(pk=table.pk).tally
        old.objects.filter(pk=table.pk).update(
            options={}, tally={**counted, "of": [*counted["of"][:2], {}, *counted["of"][3:]]}
        )
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )  # through AFTER to the latest, which the models are
        table = TableSession.objects.get(pk=table.pk)
        assert table.options == {"payment": "each"}
        assert tally.current_tally(table) is not None
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
