"""The result rows' table (ledger.tables.results); 0015 fills it."""

import django.db.models.deletion
from django.db import migrations, models

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
    ]
