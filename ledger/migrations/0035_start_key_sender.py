"""A new table's start key belongs to whoever sent it (issue 45, item 2): the key is unique per
sender, no longer across the site. A table an account started keeps its key as that account's;
the others' senders were not kept, so their keys answer no one from now on (a retry of such a
start starts a table). Backwards, a key two senders sent stays on the first table started with
it only, as the key alone is unique again."""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Cast, Concat


def senders(apps, schema_editor):
    started = apps.get_model("ledger", "TableSession").objects.exclude(idempotency_key="")
    account = Concat(Value("account:"), Cast("owner_id", models.CharField()))
    started.exclude(owner=None).update(sender=account)


def one_table_a_key(apps, schema_editor):
    tables = apps.get_model("ledger", "TableSession").objects
    seen = set()
    for pk, key in tables.exclude(idempotency_key="").order_by("pk").values_list(
        "pk", "idempotency_key"
    ):
        if key in seen:
            tables.filter(pk=pk).update(idempotency_key="", request_hash="")
        seen.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0034_drop_cache_table"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="tablesession",
            name="table_idempotency_key_unique",
        ),
        migrations.AddField(
            model_name="tablesession",
            name="sender",
            field=models.CharField(blank=True, default="", editable=False, max_length=80),
        ),
        migrations.RunPython(senders, one_table_a_key),
        migrations.AddConstraint(
            model_name="tablesession",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key", ""), _negated=True),
                fields=("sender", "idempotency_key"),
                name="table_sender_key_unique",
            ),
        ),
    ]
