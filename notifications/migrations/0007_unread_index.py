"""The index of the unread notifications (the count the page asks on every notification).

Every action writes notification rows, so on PostgreSQL the index is built ``CONCURRENTLY``: a
plain ``CREATE INDEX`` would hold the table's writes, and so every game's actions, for as long as
it reads the whole table. That cannot run in a transaction, hence ``atomic = False``; SQLite
builds it plainly.
"""

from typing import Any

from django.conf import settings
from django.db import migrations, models

UNREAD = models.Index(
    condition=models.Q(("read", False)), fields=["player", "-id"], name="notification_unread"
)


def _concurrently(schema_editor: Any) -> dict[str, bool]:
    # Only PostgreSQL's schema editor takes the argument.
    return {"concurrently": True} if schema_editor.connection.vendor == "postgresql" else {}


def build(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("notifications", "Notification")
    schema_editor.add_index(model, UNREAD, **_concurrently(schema_editor))


def drop(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("notifications", "Notification")
    schema_editor.remove_index(model, UNREAD, **_concurrently(schema_editor))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0018_game_finished_at_winner_team"),
        ("notifications", "0006_all_kinds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="notification", index=UNREAD)],
            database_operations=[migrations.RunPython(build, drop)],
        ),
    ]
