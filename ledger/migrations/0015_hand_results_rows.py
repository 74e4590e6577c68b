"""Each hand's outcome per player as rows (ledger.tables.results): every stored table is scored
as its pages score it, and each hand that counts gets a row per player. Nothing stored changes;
a table whose hands no longer score (only an edit outside the ledger can do that) gets no rows
and is counted again, rows included, by its next change.
"""

from django.db import migrations

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
    # Rows written here, the table made in 0014: on PostgreSQL a table cannot be altered in the
    # transaction that changed its rows, so each is a migration of its own.

    dependencies = [
        ("ledger", "0014_hand_results"),
    ]

    operations = [
        migrations.RunPython(write_rows, migrations.RunPython.noop),
    ]
