"""Fair decks and the tamper-evident log (issue 16, docs/fairness.md).

- ``Game.salt``: a game waiting for players gets a fresh salt of its own, so its first deal is
  shuffled from the seed mixed with it; a game already dealt keeps an empty salt (its shuffles
  were made from the seed alone, and nothing was committed before its deal).
- ``Event.hash`` and ``Game.last_hash``: the existing events of every game are chained here, as
  the write path (``games.eventstore.save``) chains new ones. The log is append-only (a trigger,
  ``0002_event_append_only``): this migration, run by the table's owner, lifts the trigger for
  its own transaction only.
"""

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import games.fairness
import games.models

TRIGGER = "games_event_append_only"
BATCH = 1000


def chain_existing(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Event = apps.get_model("games", "Event")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(f'ALTER TABLE "games_event" DISABLE TRIGGER {TRIGGER}')
    for game in Game.objects.all().only("pk", "state").iterator():
        previous = games.fairness.ZERO_HASH
        pending: list[Any] = []
        for row in Event.objects.filter(game_id=game.pk).order_by("seq").iterator():
            row.hash = previous = games.fairness.event_hash(
                previous, row.seq, row.type, row.seat, row.data
            )
            pending.append(row)
            if len(pending) >= BATCH:
                Event.objects.bulk_update(pending, ["hash"])
                pending = []
        Event.objects.bulk_update(pending, ["hash"])
        # A game not dealt yet is shuffled from its seed and a salt of its own; one already dealt
        # keeps the shuffles it was dealt with.
        salt = games.fairness.new_salt() if game.state is None else ""
        Game.objects.filter(pk=game.pk).update(last_hash=previous, salt=salt)
    if postgres:
        schema_editor.execute(f'ALTER TABLE "games_event" ENABLE TRIGGER {TRIGGER}')


class Migration(migrations.Migration):
    dependencies = [("games", "0006_checkpoint")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="hash",
            field=models.CharField(
                default="",
                max_length=64,
                help_text=(
                    "sha256(previous hash + canonical event) in hex (games.fairness.event_hash)."
                ),
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="last_hash",
            field=models.CharField(
                default=games.fairness.ZERO_HASH,
                help_text="The hash of event `version` (the chain's head).",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="salt",
            field=models.CharField(
                blank=True,
                default="",
                help_text=(
                    "32 random bytes in hex, secret until the game ends, mixed with the seed into "
                    "every shuffle; empty for games begun before fair decks (docs/fairness.md)."
                ),
                max_length=64,
            ),
        ),
        migrations.RunPython(chain_existing, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="game",
            name="salt",
            field=models.CharField(
                blank=True,
                default=games.models.game_salt,
                help_text=(
                    "32 random bytes in hex, secret until the game ends, mixed with the seed into "
                    "every shuffle; empty for games begun before fair decks (docs/fairness.md)."
                ),
                max_length=64,
            ),
        ),
    ]
