"""Players get their circle's columns; 0017 moves them into circles, 0018 adds the rules."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0015_hand_results_rows'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='event',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='ledger.event'),
        ),
        migrations.AddField(
            model_name='player',
            name='table',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='ledger.tablesession'),
        ),
        migrations.AlterField(
            model_name='entry',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='entries', to='ledger.player'),
        ),
        migrations.AlterField(
            model_name='player',
            name='key',
            field=models.CharField(editable=False, max_length=255),
        ),
        migrations.AlterField(
            model_name='result',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='results', to='ledger.player'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='seats', to='ledger.player'),
        ),
    ]
