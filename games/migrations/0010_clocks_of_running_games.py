"""Running games get the turn's start and reminder their move clock implies (the clocks, 0006).

A migration of its own: on PostgreSQL, updating game rows fires their deferred notice trigger,
and a table with pending trigger events takes no new index in the same transaction (0006 adds
the ``remind_at`` index).
"""

from datetime import timedelta
from typing import Any

from django.db import migrations


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
    dependencies = [("games", "0009_merge_clocks")]

    operations = [migrations.RunPython(_running_clocks, migrations.RunPython.noop)]
