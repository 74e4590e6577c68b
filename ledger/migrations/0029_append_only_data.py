"""The ledger as it would have been written append-only from the start.

- Each result row gets the unit its table pays in (a stake: money; a chip: chips; neither:
  points only), as ``ledger.tables.results.pays_in`` says.
- Each row a change replaced (``current`` false) gets its reversal: the same row, score and
  net negated, written when it was replaced. The money of every table, player and group is
  unchanged to the cent (tests/tables/test_append_only_migration.py): the replaced row and its
  reversal cancel, as ``current`` left the replaced row out.
- Each row that stands (``current``) gets what its player won from each other player in its
  hand, from the table scored again by the engine as its pages score it. A table whose hands
  no longer score (only an edit outside the ledger can do that) is left without: its next
  change writes them, and ``manage.py ledger_verify`` says so meanwhile.
- Each voided payment gets a void row, at when it was voided (who and why were not kept).
"""

import json
from decimal import Decimal
from typing import Any

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

import scoring
from ledger.tables import stored


def _unit(game: str, options: dict[str, Any]) -> str:
    rules = scoring.GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {"game": game, "options": options, "seating": seating}
    parsed = scoring.parse_session(document).options
    if rules.unit(parsed) == Decimal(0):
        return "points"
    return "chips" if rules.pays_chips(parsed) else "money"


def _won_from(apps: Any) -> None:
    TableSession = apps.get_model("ledger", "TableSession")
    Result = apps.get_model("ledger", "Result")
    with_rows = TableSession.objects.filter(pk__in=Result.objects.values("session_id"))
    for table in with_rows.order_by("pk").iterator(chunk_size=100):
        seats = table.seats.select_related("player").order_by("position")
        seated = {seat.player_id: seat.player.name for seat in seats}
        ids = {name: pk for pk, name in seated.items()}
        live = list(table.hands.filter(voided=False).order_by("number").values_list("pk", "data"))
        document = {
            "game": table.game,
            "options": table.options,
            "seating": list(seated.values()),
            "first": seated.get(table.leader_id, ""),
            "hands": [stored.by_name(data, seated) for _, data in live],
        }
        try:
            result = scoring.score_session(scoring.parse_session(document), new=())
        except scoring.ScoringError:
            continue
        flows = {
            pk: scoring.won_from([played])
            for (pk, _), played in zip(live, result.hands, strict=True)
        }
        rows = list(Result.objects.filter(session_id=table.pk, current=True))
        for row in rows:
            name = seated[row.player_id]
            row.won_from = {
                str(ids[payer]): str(value)
                for (payee, payer), value in sorted(flows.get(row.hand_id, {}).items())
                if payee == name
            }
        Result.objects.bulk_update(rows, ["won_from"], batch_size=500)


def forwards(apps: Any, schema_editor: Any) -> None:
    TableSession = apps.get_model("ledger", "TableSession")
    Result = apps.get_model("ledger", "Result")
    Payment = apps.get_model("ledger", "Payment")
    PaymentVoid = apps.get_model("ledger", "PaymentVoid")
    units: dict[str, str] = {}
    for pk, game, options in TableSession.objects.values_list("pk", "game", "options"):
        key = json.dumps([game, options], sort_keys=True)
        if key not in units:
            units[key] = _unit(game, options)
        if units[key] != "money":
            Result.objects.filter(session_id=pk).update(unit=units[key])
    _won_from(apps)
    replaced = Result.objects.filter(current=False).order_by("pk")
    reversals = []
    for row in replaced.iterator(chunk_size=2000):
        reversals.append(
            Result(
                session_id=row.session_id,
                hand_id=row.hand_id,
                player_id=row.player_id,
                score=None if row.score is None else -row.score,
                net=-row.net,
                unit=row.unit,
                won=row.won,
                specials=row.specials,
                reverses_id=row.pk,
                current=False,
                replaced=row.replaced,
            )
        )
    Result.objects.bulk_create(reversals, batch_size=500)
    # Written when its row was replaced (bulk_create stamped them now).
    taken = Result.objects.filter(pk=OuterRef("reverses_id"))
    when = Coalesce(Subquery(taken.values("replaced")), Subquery(taken.values("created")))
    Result.objects.exclude(reverses=None).update(created=when)
    for payment in Payment.objects.exclude(voided=None).order_by("pk"):
        void = PaymentVoid.objects.create(payment_id=payment.pk)
        PaymentVoid.objects.filter(pk=void.pk).update(at=payment.voided)


def backwards(apps: Any, schema_editor: Any) -> None:
    """The reversals and voids go (0030's way back has set the flags they stood for)."""
    apps.get_model("ledger", "PaymentVoid").objects.all().delete()
    apps.get_model("ledger", "Result").objects.exclude(reverses=None).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0028_append_only_fields"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
