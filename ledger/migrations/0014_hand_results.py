"""Each hand's outcome per player as rows (ledger.tables.results): every stored table is scored
as its pages score it, and each hand that counts gets a row per player. Nothing stored changes;
a table whose hands no longer score (only an edit outside the ledger can do that) gets no rows
and is counted again, rows included, by its next change.
"""

import django.db.models.deletion
from django.db import migrations, models

import scoring
from ledger.tables.results import outcomes


def write_rows(apps, schema_editor):
    TableSession = apps.get_model("ledger", "TableSession")
    Result = apps.get_model("ledger", "Result")
    for table in TableSession.objects.iterator():
        seats = table.seats.select_related("player").order_by("position")
        players = {seat.player.name: seat.player_id for seat in seats}
        live = list(table.hands.filter(voided=False).order_by("number").values_list("pk", "data"))
        document = {
            "game": table.game,
            "options": table.options,
            "seating": list(players),
            "first": table.first,
            "hands": [data for _, data in live],
        }
        try:
            result = scoring.score_session(scoring.parse_session(document), new=())
        except scoring.ScoringError:
            continue
        Result.objects.bulk_create(
            Result(
                session_id=table.pk,
                hand_id=pk,
                player_id=players[name],
                score=outcome.score,
                net=outcome.net,
                won=outcome.won,
                specials=list(outcome.specials),
            )
            for (pk, data), played in zip(live, result.hands, strict=True)
            for name, outcome in outcomes(table.game, data, played).items()
        )


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0013_table_ends_by_time'),
    ]

    operations = [
        migrations.CreateModel(
            name='Result',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('score', models.IntegerField(blank=True, null=True)),
                ('net', models.DecimalField(decimal_places=4, max_digits=24)),
                ('won', models.BooleanField(default=False, help_text='Ranked first in the hand.')),
                ('specials', models.JSONField(blank=True, default=list)),
                ('current', models.BooleanField(default=True)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('replaced', models.DateTimeField(blank=True, help_text='When a change replaced it.', null=True)),
                ('hand', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='ledger.hand')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='results', to='ledger.player')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='ledger.tablesession')),
            ],
            options={
                'ordering': ['hand__number', 'pk'],
                'indexes': [models.Index(fields=['session', 'current'], name='result_session_current')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('current', True)), fields=('hand', 'player'), name='result_current_unique')],
            },
        ),
        migrations.RunPython(write_rows, migrations.RunPython.noop),
    ]
