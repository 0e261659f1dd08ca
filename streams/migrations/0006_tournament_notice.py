"""On PostgreSQL, a tournament's new log entry notifies its streams (``streams.hub``) on commit.

The trigger sends the tournament's id and the entry's seq (a pointer: the stream reads the log),
inside the inserting statement, so a rolled-back entry is never announced.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION streams_tournament_notice() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('uno_tournament_changes', NEW.tournament_id::text || ':' || NEW.seq::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER streams_tournament_notice AFTER INSERT ON games_tournamententry
    FOR EACH ROW EXECUTE FUNCTION streams_tournament_notice();
"""
DROP = """
DROP TRIGGER IF EXISTS streams_tournament_notice ON games_tournamententry;
DROP FUNCTION IF EXISTS streams_tournament_notice();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0005_chat_notice"),
        ("games", "0013_tournaments"),
    ]

    operations = [migrations.RunPython(create, drop)]
