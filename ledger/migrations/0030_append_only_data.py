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
- A table's kept tally keeps no money any more (the rows do): its net, hands won, points and
  who owed whom go from it.

Written under the rules' fourth revision: the engine is the migrations' frozen copy, which reads
a table's options as played under that revision (ledger/migrations/_frozen/scoring_rev5), and
``by_name`` is ledger/tables/stored.py's as it was then (commit 49f0d54).
"""

import json
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from ledger.migrations._frozen import scoring_rev5 as scoring
from ledger.migrations._frozen.scoring_rev5 import HandEvent
from ledger.migrations._frozen.scoring_rev5.options import as_played

PLAYED = 4  # the revision of the rules the tables met here were stored under

# ledger/tables/stored.py's at commit 49f0d54, from here to by_name: a stored hand names its
# players by id, the engine by name.

# The fields of a hand that hold one player (the results hold one per key).
ONE_PLAYER = ("first", *(event.value for event in HandEvent if event.has_caller))


def _each_player(data: Mapping[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    converted = {
        key: convert(value) if key in ONE_PLAYER and value is not None else value
        for key, value in data.items()
    }
    if "results" in data:
        converted["results"] = {
            str(convert(key)): result for key, result in data["results"].items()
        }
    return converted


def by_name(data: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """A stored hand as the engine reads it: ``names`` maps each seated player's id to their
    name. Anything else is left as a string for the engine to refuse ("not seated"): a hand
    whose player was unseated in the admin, or that named someone unseated before players
    were stored by id."""

    def name(pk: Any) -> str:
        try:
            return names[int(pk)]
        except (KeyError, ValueError):
            return str(pk)

    return _each_player(data, name)


def _unit(game: str, options: dict[str, Any]) -> str:
    rules = scoring.GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {
        "game": game,
        "options": as_played(game, options, played=PLAYED),
        "seating": seating,
    }
    parsed = scoring.parse_session(document).options
    if rules.unit(parsed) == Decimal(0):
        return "points"
    return "chips" if rules.pays_chips(parsed) else "money"


def _scored(table: Any) -> tuple[dict[int, str], list[tuple[int, Any]], Any]:
    """The table's seated players (id: name), its live hands (id, data) and its scoring, as
    its pages score it; the scoring is None where its hands no longer score."""
    seats = table.seats.select_related("player").order_by("position")
    seated = {seat.player_id: seat.player.name for seat in seats}
    live = list(table.hands.filter(voided=False).order_by("number").values_list("pk", "data"))
    document = {
        "game": table.game,
        "options": as_played(table.game, table.options, played=PLAYED),
        "seating": list(seated.values()),
        "first": seated.get(table.leader_id, ""),
        "hands": [by_name(data, seated) for _, data in live],
    }
    try:
        return seated, live, scoring.score_session(scoring.parse_session(document), new=())
    except scoring.ScoringError:
        return seated, live, None


def _won_from(apps: Any) -> None:
    TableSession = apps.get_model("ledger", "TableSession")
    Result = apps.get_model("ledger", "Result")
    with_rows = TableSession.objects.filter(pk__in=Result.objects.values("session_id"))
    for table in with_rows.order_by("pk").iterator(chunk_size=100):
        seated, live, result = _scored(table)
        if result is None:
            continue
        ids = {name: pk for pk, name in seated.items()}
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


MONEY = ("net", "hands_won", "points", "owed")  # what a tally kept of money before


def _tallies_without_money(apps: Any) -> None:
    TableSession = apps.get_model("ledger", "TableSession")
    for table in TableSession.objects.exclude(tally={}).only("tally").iterator(chunk_size=500):
        if MONEY[0] in table.tally:
            kept = {part: value for part, value in table.tally.items() if part not in MONEY}
            TableSession.objects.filter(pk=table.pk).update(tally=kept)


def _tallies_with_money(apps: Any) -> None:
    """On the way back: each tally with its money again, as the schema before kept it."""
    TableSession = apps.get_model("ledger", "TableSession")
    for table in TableSession.objects.exclude(tally={}).iterator(chunk_size=100):
        if "of" not in table.tally or MONEY[0] in table.tally:
            continue
        seated, _, result = _scored(table)
        if result is None:
            kept = {}  # counted again from the hands when next read
        else:
            ids = {name: pk for pk, name in seated.items()}
            totals = result.totals
            owed = scoring.won_from(result.hands)
            kept = {
                **table.tally,
                "net": {str(ids[name]): str(value) for name, value in totals.net.items()},
                "hands_won": {str(ids[name]): value for name, value in totals.hands_won.items()},
                "points": {str(ids[name]): value for name, value in totals.scores.items()},
                "owed": [[ids[a], ids[b], str(value)] for (a, b), value in owed.items()],
            }
        TableSession.objects.filter(pk=table.pk).update(tally=kept)


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
    _tallies_without_money(apps)
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
    """The reversals and voids go (0031's way back has set the flags they stood for), and the
    tallies keep money again."""
    _tallies_with_money(apps)
    apps.get_model("ledger", "PaymentVoid").objects.all().delete()
    apps.get_model("ledger", "Result").objects.exclude(reverses=None).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0029_append_only_fields"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
