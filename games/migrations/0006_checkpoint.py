"""Checkpoints of a game's state along its log, so a replay folds a bounded number of events."""

import django.db.models.deletion
import games.fields
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_game_bot_takeover'),
    ]

    operations = [
        migrations.CreateModel(
            name='Checkpoint',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField()),
                ('state', games.fields.JSONTextField(help_text='Engine state after `seq` (games.engine.snapshot).')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='checkpoints', to='games.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'seq'), name='checkpoint_unique_seq')],
            },
        ),
    ]
