"""Players are compared by scoring.names.canonical (NFKC, case-folded, single spaces) instead of
the database's lower(), which PostgreSQL and SQLite fold differently.

Two stored players that only the new comparison finds equal (say "Anna" and "Ａｎｎａ") stay two
players: their tables' hands are written with their own spelling. The older one keeps the plain
key, so every later look-up finds it; the newer gets its key with its id after a zero-width
space, a character no name may hold, so it can never be typed.
"""

from django.db import migrations, models

from ledger.migrations._frozen.scoring_rev5.names import canonical


def fill_keys(apps, schema_editor):
    Player = apps.get_model("ledger", "Player")
    taken = set()
    for player in Player.objects.order_by("pk"):
        key = canonical(player.name)
        player.key = key if key not in taken else f"{key}\u200b{player.pk}"
        taken.add(player.key)
        player.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0006_table_tally"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="key",
            field=models.CharField(default="", editable=False, max_length=255),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique"),
        migrations.AlterField(
            model_name="player",
            name="key",
            field=models.CharField(editable=False, max_length=255, unique=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(help_text="As first typed.", max_length=40),
        ),
    ]
