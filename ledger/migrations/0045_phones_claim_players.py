"""A phone says which player it is in a circle (issue 47, "I am Bob"): ``Claim``, so that
another phone choosing the same name is told. No money, and nothing else moves."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0044_group_changes"),
    ]

    operations = [
        migrations.CreateModel(
            name="Claim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("phone", models.CharField(max_length=32)),
                ("at", models.DateTimeField(auto_now=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="claims",
                        to="ledger.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("player", "phone"), name="claim_one_per_phone")
                ],
            },
        ),
    ]
