"""On PostgreSQL, a new notification row notifies the player streams (``streams.hub``) on commit.

The trigger sends the row's player and id (a pointer, never the notification) inside the
inserting statement, so the write that causes a notification pays no round trip for it, and a
rolled-back notification is never announced.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION streams_notification_notice() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('uno_player_notices', NEW.player_id::text || ':' || NEW.id::text);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER streams_notification_notice AFTER INSERT ON notifications_notification
    FOR EACH ROW EXECUTE FUNCTION streams_notification_notice();
"""
DROP = """
DROP TRIGGER IF EXISTS streams_notification_notice ON notifications_notification;
DROP FUNCTION IF EXISTS streams_notification_notice();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0001_initial"),
        ("notifications", "0001_initial"),
    ]

    operations = [migrations.RunPython(create, drop)]
