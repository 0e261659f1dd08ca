"""The clocks (issue 16): a game's bank clock, when the running turn's clock started, when its
seat is reminded, and its players' vacations. Running games get the start and the reminder their
move clock implies (0010_clocks_of_running_games)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_game_bot_takeover'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='away',
            field=models.JSONField(blank=True, help_text='The vacations of the seated players that may stand a clock still: {player id: [[start, end], ...]}; null: read them again.', null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='clock',
            field=models.JSONField(blank=True, help_text='The bank clock, {"type": "bank", "initial", "increment", "max"} in seconds; null: the move clock (turn_timeout).', null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='remind_at',
            field=models.DateTimeField(blank=True, db_index=True, help_text='When the seat to act is reminded.', null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='turn_started_at',
            field=models.DateTimeField(blank=True, help_text='When the clock of the seat that must act started.', null=True),
        ),
    ]
