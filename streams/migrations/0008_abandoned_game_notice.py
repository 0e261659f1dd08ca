"""On PostgreSQL, a game row that becomes abandoned notifies the game streams too.

The trigger of 0003 fires when the version moves: events. A waiting game abandoned (its host's
account deleted, or a guest removed) appends none, so its open streams were never woken and
went on with keep-alives for a game that would never start. Now the notice goes on that change
too, with the version as it stands; the hub reads a game it holds as waiting on a notice of its
version (``streams.hub.Hub.notified``), finds it ended, and its streams end.
"""

from django.db import migrations

CREATE = """
DROP TRIGGER IF EXISTS streams_game_notice ON games_game;
CREATE TRIGGER streams_game_notice AFTER UPDATE OF version, status ON games_game
    FOR EACH ROW WHEN (
        NEW.version > OLD.version
        OR (NEW.status = 'abandoned' AND OLD.status IS DISTINCT FROM 'abandoned')
    ) EXECUTE FUNCTION streams_game_notice();
"""
RESTORE = """
DROP TRIGGER IF EXISTS streams_game_notice ON games_game;
CREATE TRIGGER streams_game_notice AFTER UPDATE OF version ON games_game
    FOR EACH ROW WHEN (NEW.version > OLD.version) EXECUTE FUNCTION streams_game_notice();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(RESTORE)


class Migration(migrations.Migration):
    dependencies = [("streams", "0007_ticket_session")]

    operations = [migrations.RunPython(create, restore)]
