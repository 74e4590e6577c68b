"""Room for an append-only ledger (0030 fills it, 0031 drops what it replaces): a result row's
unit (money, chips or points), what its player won from each other player, and the row it
takes back (a reversal); and a payment's void as a row of its own (who, when, why)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0028_limit_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="reverses",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="reversal",
                to="ledger.result",
            ),
        ),
        migrations.AddField(
            model_name="result",
            name="unit",
            field=models.CharField(
                choices=[("money", "money"), ("chips", "chips"), ("points", "points")],
                default="money",
                max_length=6,
            ),
        ),
        migrations.AddField(
            model_name="result",
            name="won_from",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.CreateModel(
            name="PaymentVoid",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("device", models.CharField(blank=True, help_text="Who voided it.", max_length=40)),
                ("reason", models.CharField(blank=True, help_text="Why.", max_length=80)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "payment",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="void",
                        to="ledger.payment",
                    ),
                ),
            ],
        ),
    ]
