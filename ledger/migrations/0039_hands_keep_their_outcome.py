"""Result rows and hands keep all that a hand's display needs, so that pages, the API and the
exports read them and never the engine (issue 46, item 1):

- each row, the player's place in the hand's turn order and in its ranking, the payments they
  made (to whom, how much, with which multiplier and why, and their place among the hand's
  payments) and why a special of theirs stands where the entry proves it;
- each hand, who led it and which way, and who leads the next and which way (a redeal has no
  rows: these say where play goes on after it).

Each table's hands that count are scored again here by the engine, as its pages scored them
until now, and what that gives is written into the rows that stand and into the hands. The
rows a change reversed before this migration, and their reversals, stay without: they cancel
each other, no page reads them, and each reversal is still its row negated. A table whose
hands no longer score (only an edit outside the ledger can do that) is left without: its next
change writes them, and ``manage.py ledger_verify`` names it meanwhile. No amount changes:
every total, balance and export stays to the cent (tests/tables/test_outcome_migration.py).
"""

from collections import defaultdict
from typing import Any

from django.db import migrations, models
from django.db.models import deletion

# The engine of rules revision 5, as it is copied for the migrations (its explain and its
# settlement as today's), so a later change to the engine never changes what this writes.
from ledger.migrations._frozen import scoring_rev5 as scoring

# The fields of a stored hand that hold one player's id (ledger.tables.stored.ONE_PLAYER as it
# was when this was written).
ONE_PLAYER = ("first", "redeal", "declared_doubles")


def _by_name(data: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A stored hand (players by id) as the engine reads it (by name)."""

    def name(pk: Any) -> str:
        try:
            return names[int(pk)]
        except (KeyError, ValueError):
            return str(pk)

    named = {
        key: name(value) if key in ONE_PLAYER and value is not None else value
        for key, value in data.items()
    }
    if "results" in data:
        named["results"] = {name(key): result for key, result in data["results"].items()}
    return named


def fill(apps: Any, schema_editor: Any) -> None:
    TableSession = apps.get_model("ledger", "TableSession")
    Hand = apps.get_model("ledger", "Hand")
    Result = apps.get_model("ledger", "Result")
    for table in TableSession.objects.order_by("pk").iterator():
        seats = table.seats.select_related("player").order_by("position")
        seated = {seat.player_id: seat.player.name for seat in seats}
        ids = {name: pk for pk, name in seated.items()}
        live = list(table.hands.filter(voided=False).order_by("number").values_list("pk", "data"))
        document = {
            "game": table.game,
            "options": table.options,
            "seating": list(seated.values()),
            "first": seated.get(table.leader_id, ""),
            "hands": [_by_name(data, seated) for _, data in live],
        }
        try:
            parsed = scoring.parse_session(document)
            result = scoring.score_session(parsed, new=())
        except scoring.ScoringError:
            continue
        standing = {
            (row.hand_id, row.player_id): row
            for row in Result.objects.filter(session=table, reverses=None, reversal=None)
        }
        hands, rows = [], []
        for index, ((pk, _), played) in enumerate(zip(live, result.hands, strict=True)):
            hands.append(
                Hand(
                    pk=pk,
                    first_id=ids[played.first],
                    direction=played.direction.value,
                    next_first_id=ids[played.next_first],
                    next_direction=played.next_direction.value,
                )
            )
            proofs = {p.player: p for p in scoring.explain(parsed, parsed.hands[index], played)}
            paid = defaultdict(list)
            for at, payment in enumerate(played.payments):
                paid[payment.payer].append(
                    {
                        "at": at,
                        "to": ids[payment.payee],
                        "amount": str(payment.amount),
                        "multiplier": payment.multiplier,
                        "reason": payment.reason,
                    }
                )
            for name in played.net:
                row = standing.get((pk, ids[name]))
                if row is None:
                    continue
                row.turn = played.order.index(name) + 1
                row.rank = played.ranking.index(name) + 1 if name in played.ranking else None
                row.paid = paid[name]
                proof = proofs.get(name)
                row.proof = None if proof is None else {
                    "special": proof.special.value,
                    "tiles": proof.tiles,
                    "pips": proof.pips,
                    "by_tiles": proof.by_tiles,
                    "at_least": proof.at_least,
                }  # fmt: skip
                rows.append(row)
        Hand.objects.bulk_update(
            hands, ["first", "direction", "next_first", "next_direction"], batch_size=500
        )
        Result.objects.bulk_update(rows, ["turn", "rank", "paid", "proof"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0038_payment_chip_constraint")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="first",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=deletion.RESTRICT,
                related_name="+",
                to="ledger.player",
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="direction",
            field=models.CharField(blank=True, default="", max_length=3),
        ),
        migrations.AddField(
            model_name="hand",
            name="next_first",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=deletion.RESTRICT,
                related_name="+",
                to="ledger.player",
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="next_direction",
            field=models.CharField(blank=True, default="", max_length=3),
        ),
        migrations.AddField(
            model_name="result",
            name="turn",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="result",
            name="rank",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="result",
            name="paid",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="result",
            name="proof",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
