"""PostgreSQL announces a table's new revision itself (issue 46: a save makes one query less).

Until now the process that raised a table's revision sent ``SELECT pg_notify(...)`` once the
change had committed: one statement more for every save, correction, void, lock and change of
ends, and a change that could commit but go unannounced if the database was lost between the
two. Now a trigger on the tables queues the NOTIFY in the transaction that raises the revision;
PostgreSQL delivers it when that transaction commits, and never for one rolled back. Whoever
raises a revision announces it (the app, the admin, a restore).

The payload is what the streams hear (ledger.web.push, ``Hub.hear``): "table revision event
group", 0 for none. A group's new table is announced at its first revision, so that the group's
page lists it; a round's tables are announced with their event, by the process. SQLite has no
NOTIFY: there each server process reads the revisions of the tables it streams.
"""

from django.db import migrations

from ledger.migrations._on_postgresql import OnPostgreSQL

CHANNEL = "ledger_tables"  # ledger.web.push.CHANNEL as it was when this was written

ANNOUNCE = f"""
CREATE FUNCTION ledger_table_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', concat_ws(' ', NEW.id, NEW.revision,
        coalesce((SELECT event_id FROM ledger_round WHERE id = NEW.round_id), 0),
        coalesce(NEW.group_id, 0)));
    RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_table_revised AFTER UPDATE OF revision ON ledger_tablesession
    FOR EACH ROW WHEN (NEW.revision <> OLD.revision) EXECUTE FUNCTION ledger_table_announce();
CREATE TRIGGER ledger_group_table_started AFTER INSERT ON ledger_tablesession
    FOR EACH ROW WHEN (NEW.group_id IS NOT NULL) EXECUTE FUNCTION ledger_table_announce();
"""

SILENT = """
DROP TRIGGER ledger_group_table_started ON ledger_tablesession;
DROP TRIGGER ledger_table_revised ON ledger_tablesession;
DROP FUNCTION ledger_table_announce();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0041_sqlite_sums_within_64_bits"),
    ]

    operations = [
        OnPostgreSQL(ANNOUNCE, SILENT),
    ]
