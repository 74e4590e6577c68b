"""The limits' counts (ledger/web/limits.py) in a table of their own, ``LimitCount``, where
a hit adds to its row under the row's lock: Django's cache cannot count at once from two
workers (its ``incr`` reads, then writes back).

Unlogged on PostgreSQL, as the cache's table is (0022): every phone's save counts in the
write limit, and a count is a few minutes' worth, so its writes skip the write-ahead log and
no commit waits for the disk. After a crash PostgreSQL empties the table: the counts start
again. The counts kept in the cache until now are left to expire there.
"""

from django.db import migrations, models


def _persistence(kind):
    def change(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            table = apps.get_model("ledger", "LimitCount")._meta.db_table
            schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(table)} SET {kind}")

    return change


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0027_result_balanced'),
    ]

    operations = [
        migrations.CreateModel(
            name='LimitCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('scope', models.CharField(max_length=20)),
                ('client', models.CharField(max_length=255)),
                ('hits', models.PositiveIntegerField()),
                ('ends', models.DateTimeField(db_index=True)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('scope', 'client'), name='limit_count_one_per_client')],
            },
        ),
        migrations.RunPython(_persistence("UNLOGGED"), _persistence("LOGGED")),
    ]
