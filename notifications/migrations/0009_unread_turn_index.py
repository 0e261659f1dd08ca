"""The index of a player's unread turn notices of a game (``outbox.superseded``: a newer turn
notice makes them read, in the action's statement). Built ``CONCURRENTLY`` on PostgreSQL, as
``0007_unread_index`` is, so that every game's actions go on while it is built."""

from typing import Any

from django.db import migrations, models

UNREAD_TURN = models.Index(
    condition=models.Q(("kind__in", ["your_turn", "deadline_soon"]), ("read", False)),
    fields=["player", "game"],
    name="notification_unread_turn",
)


def _concurrently(schema_editor: Any) -> dict[str, bool]:
    # Only PostgreSQL's schema editor takes the argument.
    return {"concurrently": True} if schema_editor.connection.vendor == "postgresql" else {}


def build(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("notifications", "Notification")
    schema_editor.add_index(model, UNREAD_TURN, **_concurrently(schema_editor))


def drop(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("notifications", "Notification")
    schema_editor.remove_index(model, UNREAD_TURN, **_concurrently(schema_editor))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("notifications", "0008_push_choice")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="notification", index=UNREAD_TURN)],
            database_operations=[migrations.RunPython(build, drop)],
        ),
    ]
