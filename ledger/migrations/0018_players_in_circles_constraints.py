"""Each circle knows a name once, and a player is in exactly one circle (after 0017 moved them:
on PostgreSQL a table whose rows were just changed cannot be altered in the same transaction)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0017_players_in_circles_data"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('table__isnull', False)), fields=('table', 'key'), name='player_key_per_table'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('event__isnull', False)), fields=('event', 'key'), name='player_key_per_event'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('event__isnull', True), ('table__isnull', False)), models.Q(('event__isnull', False), ('table__isnull', True)), _connector='OR'), name='player_in_one_circle'),
        ),
    ]
