"""Players belong to a circle: a lone table's own, or a tournament's. Until now one player row
stood for a name everywhere, so every circle's Anna was one person. Each tournament now gets its
own copy of every player it knows (its entries, the seats of its tables, their result rows), and
each lone table a copy of its seated players; the names are the same, so every total, standing
and export is too. The old shared rows, no longer used, go.
"""

from django.db import migrations


def split(apps, schema_editor):
    Player = apps.get_model("ledger", "Player")
    Entry = apps.get_model("ledger", "Entry")
    Seat = apps.get_model("ledger", "Seat")
    Result = apps.get_model("ledger", "Result")
    Event = apps.get_model("ledger", "Event")
    TableSession = apps.get_model("ledger", "TableSession")

    def own(rows, circle):
        """Give each player referred to by ``rows`` (querysets) a copy of their own in
        ``circle`` and refer to it instead."""
        shared = {row.player_id for queryset in rows for row in queryset.only("player_id")}
        for old in Player.objects.filter(pk__in=shared):
            new = Player.objects.create(name=old.name, key=old.key, **circle)
            Player.objects.filter(pk=new.pk).update(created=old.created)
            for queryset in rows:
                queryset.filter(player_id=old.pk).update(player_id=new.pk)

    for event in Event.objects.all():
        own(
            [
                Entry.objects.filter(event=event),
                Seat.objects.filter(session__round__event=event),
                Result.objects.filter(session__round__event=event),
            ],
            {"event": event},
        )
    for table in TableSession.objects.filter(round__isnull=True):
        own(
            [Seat.objects.filter(session=table), Result.objects.filter(session=table)],
            {"table": table},
        )
    Player.objects.filter(table__isnull=True, event__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0016_players_in_circles"),
    ]

    operations = [
        migrations.RunPython(split, migrations.RunPython.noop),
    ]
