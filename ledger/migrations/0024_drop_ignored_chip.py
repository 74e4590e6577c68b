"""Jie Long, Ce Deng and Tsair Deng tables, events and groups that pay by the stake lose the ``chip``
the rules ignored there until their fourth revision, which refuses it.

Such a table settled pairwise by its stake whatever its chip said; the engine now refuses a
chip without ``payment: "chips"`` (scoring.options.as_played leaves it out of a table stored
before). Nothing a hand paid changes, so a table's kept tally stays as counted: where it was
current, it is marked current for the options without the chip.
"""

from django.db import migrations

from ledger.migrations._frozen.scoring_rev5.options import as_played

GAMES = ("jie-long", "ce-deng", "tsair-deng")


def drop(apps, schema_editor):
    for model in ("TableSession", "Event", "Group"):
        rows = apps.get_model("ledger", model).objects.filter(
            game__in=GAMES, options__has_key="chip"
        )
        for row in rows.only(
            "pk", "game", "options", *(["tally"] if model == "TableSession" else [])
        ):
            options = as_played(row.game, row.options, played=3, now=4)
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
    dependencies = [("ledger", "0023_session_indexes_in_composite")]

    # Backwards, the chip stays out: it never paid anything there.
    operations = [migrations.RunPython(drop, migrations.RunPython.noop)]
