"""PostgreSQL refuses UPDATE and DELETE on a tournament's log: the log is append-only."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

CREATE = """
CREATE OR REPLACE FUNCTION games_tournamententry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = 'games_tournamententry is append-only: ' || TG_OP || ' is refused',
        ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_tournamententry_append_only
    BEFORE UPDATE OR DELETE ON games_tournamententry
    FOR EACH ROW EXECUTE FUNCTION games_tournamententry_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_tournamententry_append_only ON games_tournamententry;
DROP FUNCTION IF EXISTS games_tournamententry_append_only();
"""


def create_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0013_tournaments")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
