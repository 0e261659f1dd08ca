"""The clocks (issue 16): a game's bank clock, when the running turn's clock started, when its
seat is reminded, and its players' vacations. Running games get the start and the reminder their
move clock implies."""

from datetime import timedelta
from typing import Any

from django.db import migrations, models


def _running_clocks(apps: Any, schema_editor: Any) -> None:
    # In Python rather than in SQL: SQLite has no arithmetic of durations.
    Game = apps.get_model("games", "Game")
    running = Game.objects.filter(turn_deadline__isnull=False)
    batch = []
    for game in running.only("id", "turn_deadline", "turn_timeout").iterator():
        turn = timedelta(seconds=game.turn_timeout)
        game.turn_started_at = game.turn_deadline - turn
        game.remind_at = game.turn_deadline - turn * 0.2
        batch.append(game)
        if len(batch) == 500:
            Game.objects.bulk_update(batch, ["turn_started_at", "remind_at"])
            batch = []
    Game.objects.bulk_update(batch, ["turn_started_at", "remind_at"])


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
        migrations.RunPython(_running_clocks, migrations.RunPython.noop),
    ]
