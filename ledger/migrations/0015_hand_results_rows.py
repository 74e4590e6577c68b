"""Each hand's outcome per player as rows (ledger.tables.results): every stored table is scored
as its pages score it, and each hand that counts gets a row per player. Nothing stored changes;
a table whose hands no longer score (only an edit outside the ledger can do that) gets no rows
and is counted again, rows included, by its next change.

Written under the rules' third revision: the engine is the migrations' frozen copy, which reads
a table's options as played under that revision (ledger/migrations/_frozen/scoring_rev5), and
``outcomes`` is ledger/tables/results.py's as it was then (commit 10fce18).
"""

from decimal import Decimal
from typing import NamedTuple

from django.db import migrations

from ledger.migrations._frozen import scoring_rev5 as scoring
from ledger.migrations._frozen.scoring_rev5 import GAMES, Special
from ledger.migrations._frozen.scoring_rev5.options import as_played

PLAYED = 3  # the revision of the rules the tables met here were stored under


def specials_of(game, result):
    """A result's specials, as a hand stores them: those marked, and the pass that a score of
    0 is in a game that knows pass, marked or not (``scoring.Game.in_force``).

    ledger/web/display.py's at commit 10fce18."""
    marked = result.get("specials", [])
    if result.get("pips") != 0 and result.get("tiles") != []:
        return marked
    found = GAMES[game].in_force(0, frozenset(Special(value) for value in marked))
    return marked + sorted(special.value for special in found if special.value not in marked)


class Outcome(NamedTuple):
    """What a row says of one player in one hand (ledger/tables/results.py's at commit 10fce18)."""

    score: int | None
    net: Decimal
    won: bool
    specials: tuple[str, ...]


def outcomes(game, data, played):
    """Each player's outcome of a hand as stored (``data``) and settled (``played``); none for
    a redeal. Specials are those marked or proven (stored with the hand), a 0's pass, and
    declared doubles for their holder.

    ledger/tables/results.py's at commit 10fce18."""
    if data.get("redeal") is not None:
        return {}
    entered = data.get("results", {})
    holder = data.get("declared_doubles")
    return {
        name: Outcome(
            played.scores.get(name),
            net,
            played.winner == name,
            tuple(
                sorted(
                    specials_of(game, entered.get(name, {}))
                    + (["declared_doubles"] if name == holder else [])
                )
            ),
        )
        for name, net in played.net.items()
    }


def write_rows(apps, schema_editor):
    TableSession = apps.get_model("ledger", "TableSession")
    Result = apps.get_model("ledger", "Result")
    for table in TableSession.objects.iterator():
        seats = table.seats.select_related("player").order_by("position")
        players = {seat.player.name: seat.player_id for seat in seats}
        live = list(table.hands.filter(voided=False).order_by("number").values_list("pk", "data"))
        document = {
            "game": table.game,
            "options": as_played(table.game, table.options, played=PLAYED),
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
