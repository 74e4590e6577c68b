"""Tables and events stored before a default changed keep the one they were played under.

Kko-li-but-i-gi's chip payment now defaults to ``highest``; every table and event stored before
played under ``each``, which is written into its options here (scoring.options.as_played), so
no stored result changes. A table's kept tally was counted for its options: where it was
current, it is marked current for the options written in, since the totals are the same.
"""

from django.db import migrations

from ledger.migrations._frozen.scoring_rev5.options import as_played


def pin(apps, schema_editor):
    for model in ("TableSession", "Event"):
        rows = apps.get_model("ledger", model).objects.all()
        for row in rows.only(
            "pk", "game", "options", *(["tally"] if model == "TableSession" else [])
        ):
            # The rules' second revision changed Kko-li-but-i-gi's default.
            options = as_played(row.game, row.options, played=1, now=2)
            if options == row.options:
                continue
            fields = {"options": options}
            if model == "TableSession" and row.tally and row.tally["of"][2] == row.options:
                fields["tally"] = {
                    **row.tally,
                    "of": [*row.tally["of"][:2], options, *row.tally["of"][3:]],
                }
            rows.model.objects.filter(pk=row.pk).update(**fields)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_player_key")]

    # Backwards, the options stay written in: they say what the old default said.
    operations = [migrations.RunPython(pin, migrations.RunPython.noop)]
