"""Tiu Yu tables and events stored before the rules' third revision keep the ch'i tsun reading
they were played under.

The ch'i tsun's two pieces (1:2 and 2:4) now mate only each other by default; every Tiu Yu table
and event stored before was checked under the looser reading, ``chi_tsun: by_spots``, which is
written into its options here (scoring.options.as_played), so no stored hand stops scoring. A
table's kept tally was counted for its options: where it was current, it is marked current for
the options written in, since the totals are the same (the option decides only which catches
are possible, never what a catch scores).
"""

from django.db import migrations

from ledger.migrations._frozen.scoring_rev5.options import as_played


def pin(apps, schema_editor):
    for model in ("TableSession", "Event"):
        rows = apps.get_model("ledger", model).objects.filter(game="tiu-yu")
        for row in rows.only(
            "pk", "game", "options", *(["tally"] if model == "TableSession" else [])
        ):
            options = as_played(row.game, row.options, played=2, now=3)
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
    dependencies = [("ledger", "0009_event_undo")]

    # Backwards, the options stay written in: they say what the old default said.
    operations = [migrations.RunPython(pin, migrations.RunPython.noop)]
