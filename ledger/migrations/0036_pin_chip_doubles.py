"""Tables, events and groups stored before the rules' fifth revision keep what they were played
under: one table, one unit.

A Ce Deng table that pays chips now pays declared doubles in chips (2 from each other player);
every one stored before paid them 2 x stake x pips in money, so ``doubles: stake`` is written
into its options here (scoring.options.as_played), with the stake it had. A Jie Long or Tsair
Deng table that pays chips loses the ``stake`` that paid nothing there and is now refused.
Nothing a hand paid changes, so a table's kept tally stays as counted: where it was current, it
is marked current for the options written in.
"""

from django.db import migrations

from ledger.migrations._frozen.scoring_rev5.options import as_played

GAMES = ("jie-long", "ce-deng", "tsair-deng")


def _rewrite(apps, change):
    for model in ("TableSession", "Event", "Group"):
        rows = apps.get_model("ledger", model).objects.filter(
            game__in=GAMES, options__payment="chips"
        )
        for row in rows.only(
            "pk", "game", "options", *(["tally"] if model == "TableSession" else [])
        ):
            options = change(row)
            if options == row.options:
                continue
            fields = {"options": options}
            if model == "TableSession" and row.tally and row.tally["of"][2] == row.options:
                fields["tally"] = {
                    **row.tally,
                    "of": [*row.tally["of"][:2], options, *row.tally["of"][3:]],
                }
            rows.model.objects.filter(pk=row.pk).update(**fields)


def pin(apps, schema_editor):
    _rewrite(apps, lambda row: as_played(row.game, row.options, played=4, now=5))


def unpin(apps, schema_editor):
    """Backwards, the code before knows no ``doubles``: what it paid was that default. The
    stake left out stays out: it never paid anything there."""
    _rewrite(
        apps,
        lambda row: {k: v for k, v in row.options.items() if (k, v) != ("doubles", "stake")},
    )


class Migration(migrations.Migration):
    dependencies = [("ledger", "0035_start_key_sender")]

    operations = [migrations.RunPython(pin, unpin)]
