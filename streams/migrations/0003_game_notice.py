"""On PostgreSQL, a game row whose version moves notifies the game streams (``streams.hub``).

The trigger fires inside the write's own ``UPDATE`` of the game row (``games.eventstore.save``'s
one message), so a write pays no round trip for it; PostgreSQL delivers the notice on commit and
drops it with a rollback. It carries the game id and the new version, never an event.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION streams_game_notice() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('uno_game_events', NEW.id::text || ':' || NEW.version::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER streams_game_notice AFTER UPDATE OF version ON games_game
    FOR EACH ROW WHEN (NEW.version > OLD.version) EXECUTE FUNCTION streams_game_notice();
"""
DROP = """
DROP TRIGGER IF EXISTS streams_game_notice ON games_game;
DROP FUNCTION IF EXISTS streams_game_notice();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0002_notification_notice"),
        ("games", "0004_game_state_as_text"),
    ]

    operations = [migrations.RunPython(create, drop)]
