"""On PostgreSQL, a new chat message notifies the game streams (``streams.hub``), as a game row's
new version does (0003): PostgreSQL delivers the notice on commit only. It carries the game id and
the message id, never the message."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION streams_chat_notice() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('uno_game_chat', NEW.game_id::text || ':' || NEW.id::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER streams_chat_notice AFTER INSERT ON games_chatmessage
    FOR EACH ROW EXECUTE FUNCTION streams_chat_notice();
"""
DROP = """
DROP TRIGGER IF EXISTS streams_chat_notice ON games_chatmessage;
DROP FUNCTION IF EXISTS streams_chat_notice();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0004_notification_commit_order"),
        ("games", "0011_chat"),
    ]

    operations = [migrations.RunPython(create, drop)]
