"""Vacations (issue 16): a player's clocks stand still while on one."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_bot'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Vacation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('starts_at', models.DateTimeField()),
                ('ends_at', models.DateTimeField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='vacations', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['player', 'starts_at'],
                'indexes': [models.Index(fields=['player', 'ends_at'], name='players_vac_player__9bc8d7_idx')],
                'constraints': [models.CheckConstraint(condition=models.Q(('ends_at__gte', models.F('starts_at'))), name='vacation_ends_after_start')],
            },
        ),
    ]
