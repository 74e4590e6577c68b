"""Hands, their changes and the tallies refer to players by id, not by name; and who leads a
table's first hand is its seated player (``leader``), not a name (issue 20, item 1).

Every stored hand and change has its names turned into the ids of the players seated at its
table under those names, and every tally its keys; names are the same, so every total,
standing and export is too. A name that no seat of its table has (a hand that no longer scored
before this migration either) is left as it was, and a tally that cannot be turned over is
emptied: it is counted again from the hands when next read. Undone, the ids become names
again.

The conversion is written out here rather than imported, so that this migration does what it
did whatever ``ledger.tables.stored`` becomes.
"""

import django.db.models.deletion
from django.db import migrations, models

ONE_PLAYER = ("first", "redeal", "declared_doubles")


def _each_player(data, convert):
    if not isinstance(data, dict):
        return data
    out = {
        key: convert(value) if key in ONE_PLAYER and value is not None else value
        for key, value in data.items()
    }
    if isinstance(data.get("results"), dict):
        out["results"] = {str(convert(key)): value for key, value in data["results"].items()}
    return out


def _seated(apps):
    """Each table's seated players, {table pk: {player pk: name}}, in seat order."""
    Seat = apps.get_model("ledger", "Seat")
    seated = {}
    for table, player, name in Seat.objects.order_by("session_id", "position").values_list(
        "session_id", "player_id", "player__name"
    ):
        seated.setdefault(table, {})[player] = name
    return seated


def _tables(apps, convert, leader):
    """Apply ``convert(data, seated)`` to every hand and change, and ``leader`` to every table."""
    TableSession = apps.get_model("ledger", "TableSession")
    Hand = apps.get_model("ledger", "Hand")
    HandChange = apps.get_model("ledger", "HandChange")
    seated = _seated(apps)
    for table in TableSession.objects.all().iterator():
        players = seated.get(table.pk, {})
        leader(table, players)
        hands = list(Hand.objects.filter(session=table))
        for hand in hands:
            hand.data = convert(hand.data, players)
        Hand.objects.bulk_update(hands, ["data"], batch_size=500)
        changes = list(HandChange.objects.filter(hand__session_id=table.pk))
        for change in changes:
            change.before = convert(change.before, players)
            change.after = convert(change.after, players)
        HandChange.objects.bulk_update(changes, ["before", "after"], batch_size=500)


def to_ids(apps, schema_editor):
    def convert(data, players):
        ids = {name: pk for pk, name in players.items()}
        return _each_player(data, lambda name: ids.get(name, name))

    def leader(table, players):
        ids = {name: pk for pk, name in players.items()}
        table.leader_id = ids.get(table.first)
        if table.leader_id is None and players:  # no seat has that name: seat 0 leads
            table.leader_id = next(iter(players))
        table.tally = _tally(table.tally, lambda name: ids[name])
        table.save(update_fields=["leader", "tally"])

    _tables(apps, convert, leader)


def _tally(doc, player):
    """A tally with each of its players turned over by ``player`` (a name into an id, or back),
    or {} where it cannot be: it is then counted again from the hands when next read."""
    try:
        revision, game, options, seating, first = doc["of"]
        return {
            **doc,
            "of": [revision, game, options, [player(p) for p in seating], player(first)],
            **{
                part: {str(player(p)): value for p, value in doc[part].items()}
                for part in ("net", "hands_won", "points")
            },
            "owed": [[player(payee), player(payer), value] for payee, payer, value in doc["owed"]],
        }
    except (AttributeError, KeyError, TypeError, ValueError):
        return {}


def to_names(apps, schema_editor):
    def convert(data, players):
        return _each_player(data, lambda pk: players.get(_as_int(pk), pk))

    def leader(table, players):
        table.first = players.get(table.leader_id, "")
        table.tally = _tally(table.tally, lambda pk: players[int(pk)])
        table.save(update_fields=["first", "tally"])

    _tables(apps, convert, leader)


def _as_int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0019_groups"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablesession",
            name="leader",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="+",
                to="ledger.player",
            ),
        ),
        migrations.AlterField(
            model_name="tablesession",
            name="first",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(to_ids, to_names),
        migrations.RemoveField(
            model_name="tablesession",
            name="first",
        ),
        migrations.AlterField(
            model_name="hand",
            name="data",
            field=models.JSONField(
                help_text="The hand as the scoring contract takes it, players by id."
            ),
        ),
    ]
