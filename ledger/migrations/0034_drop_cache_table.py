"""The database cache's table (0011, ``ledger_cache``) goes: the tables' live parts are kept in
each process's memory now, or in Redis (settings.CACHES). What it held was a minute's worth,
rendered again when asked for.

Backwards the table is made again, as ``createcachetable`` makes it and unlogged on PostgreSQL
(0022), for the code before this that keeps the parts in it.
"""

from django.core.management import call_command
from django.db import migrations

TABLE = "ledger_cache"


def drop(apps, schema_editor):
    if TABLE in schema_editor.connection.introspection.table_names():
        schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(TABLE)}")


def make(apps, schema_editor):
    connection = schema_editor.connection
    call_command("createcachetable", TABLE, database=connection.alias, verbosity=0)
    if connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(TABLE)} SET UNLOGGED")


class Migration(migrations.Migration):
    dependencies = [("ledger", "0033_table_changes")]

    operations = [migrations.RunPython(drop, make)]
