import secrets

from django.db import migrations, models

from ledger.migrations._frozen import models_0001


def give_every_table_an_organiser_token(apps, schema_editor):
    TableSession = apps.get_model("ledger", "TableSession")
    for table in TableSession.objects.filter(organiser_token__isnull=True):
        table.organiser_token = secrets.token_urlsafe(16)
        table.save(update_fields=["organiser_token"])


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_hand_idempotency_key")]

    operations = [
        migrations.AddField(
            model_name="tablesession",
            name="locked",
            field=models.BooleanField(default=False, help_text="Takes no more hands or changes."),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="organiser_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(give_every_table_an_organiser_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tablesession",
            name="organiser_token",
            field=models.CharField(
                default=models_0001.new_token, editable=False, max_length=32, unique=True
            ),
        ),
    ]
