"""On PostgreSQL, a player's notification ids increase in the order their transactions commit.

A notification's id comes from a sequence when its row is inserted, but transactions commit in
their own order: a write that took id 10 may commit after one that took id 11, and a player stream
that had sent 11 (or a client resuming from ``Last-Event-ID: 11``) would never send 10. So the
row's id is drawn again, in a trigger before the insert, once the inserting transaction holds a
lock on the player (``pg_advisory_xact_lock``, released at commit or rollback): a write that
notifies a player waits for any other write that notified that player to end, and draws its id
after. A later-committed notification of a player always has the greater id, and a reader that
sees it also sees every lower one of that player's. Writes for other players do not wait.

Every write of notifications holds its game's row lock, and the trigger locks the players of
the game's roster (and the row's player) in the order of their ids, all at the first
notification: two writes that notify the same players take their locks in one order, so they
cannot deadlock on them. (Without PostgreSQL the database has one writer at a time: ids already
follow commits.)
"""

from django.db import migrations

from players.locks import NOTIFIED_LOCK_SPACE as LOCK_SPACE

CREATE = """
CREATE OR REPLACE FUNCTION streams_notification_order() RETURNS trigger AS $$
DECLARE
    player integer;
BEGIN
    FOR player IN
        SELECT p FROM (
            SELECT (entry->>'id')::integer AS p
            FROM games_game AS g, jsonb_array_elements(g.roster) AS entry
            WHERE g.id = NEW.game_id
            UNION
            SELECT NEW.player_id
        ) AS players
        WHERE p IS NOT NULL
        ORDER BY p
    LOOP
        PERFORM pg_advisory_xact_lock({space}, player);
    END LOOP;
    NEW.id := nextval({sequence});
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER streams_notification_order BEFORE INSERT ON notifications_notification
    FOR EACH ROW EXECUTE FUNCTION streams_notification_order();
"""
DROP = """
DROP TRIGGER IF EXISTS streams_notification_order ON notifications_notification;
DROP FUNCTION IF EXISTS streams_notification_order();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence('notifications_notification', 'id')")
        (sequence,) = cursor.fetchone()
    literal = "'" + sequence.replace("'", "''") + "'::regclass"
    schema_editor.execute(CREATE.format(space=LOCK_SPACE, sequence=literal))


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("streams", "0003_game_notice"),
        ("notifications", "0001_initial"),
        ("games", "0003_game_roster"),
    ]

    operations = [migrations.RunPython(create, drop)]
