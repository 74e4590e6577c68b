"""What a group plays for applies to every game it plays (issue 47): a group's stake and chip
move from its usual game's options to ``plays_for``, where every new table of any game takes
the one its game pays in. Until now a group's other games played at the engine's usual 1.

Nothing that is stored as money changes: the tables keep their own options, and so their rows,
totals and balances.
"""

from typing import Any

from django.db import migrations, models

from ledger.migrations._frozen import scoring_rev5 as scoring
from ledger.migrations._frozen.scoring_rev5 import GAMES

PLAYS_FOR = ("stake", "chip")  # what a table's options say it plays for


def _split(apps: Any, schema_editor: Any) -> None:
    Group = apps.get_model("ledger", "Group")
    for group in Group.objects.all():
        plays_for = {key: group.options[key] for key in PLAYS_FOR if key in group.options}
        rules = {key: value for key, value in group.options.items() if key not in PLAYS_FOR}
        Group.objects.filter(pk=group.pk).update(options=rules, plays_for=plays_for)


def _join(apps: Any, schema_editor: Any) -> None:
    """Back: the usual game's stake or chip, whichever it pays in, in its options again (what
    the other games played for is lost)."""
    Group = apps.get_model("ledger", "Group")
    for group in Group.objects.all():
        document = {"game": group.game, "options": group.options, "seating": []}
        chips = GAMES[group.game].pays_chips(scoring.parse_session(document).options)
        key = "chip" if chips else "stake"
        paid = {key: group.plays_for[key]} if key in group.plays_for else {}
        Group.objects.filter(pk=group.pk).update(options={**group.options, **paid})


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0042_tables_announce_their_revisions"),
    ]

    operations = [
        migrations.AddField(
            model_name="group",
            name="plays_for",
            field=models.JSONField(blank=True, default=dict, help_text="What it plays for."),
        ),
        migrations.AlterField(
            model_name="group",
            name="options",
            field=models.JSONField(blank=True, default=dict, help_text="Its usual game's rules."),
        ),
        migrations.RunPython(_split, _join),
    ]
