"""The limits' shared counts live in Django's database cache (ledger/web/cache.py, table
``ledger_cache``): made here, so that ``migrate`` alone readies a database for every request.

``createcachetable`` makes the table of every database cache in settings.CACHES, and only where
it is missing (a database readied by hand before keeps its table); with the counts in Redis
(CACHE_URL) it has nothing to make.
"""

from django.core.management import call_command
from django.db import migrations


def make(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0010_pin_chi_tsun")]

    # Backwards the table stays: the counts in it are a few minutes' worth, and harmless.
    operations = [migrations.RunPython(make, migrations.RunPython.noop)]
