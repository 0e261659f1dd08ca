"""``remind_at`` is cleared once a turn is reminded and when a game ends (``service.reminders``,
``games.projections``): the rows written before lose theirs, so the sweep's read of due reminders
(by the ``remind_at`` index) skips them."""

from django.db import migrations

CLEAR = """
UPDATE games_game SET remind_at = NULL
WHERE remind_at IS NOT NULL AND (
    status <> 'active'
    OR EXISTS (
        SELECT 1 FROM notifications_notification n
        WHERE n.kind = 'deadline_soon' AND n.game_id = games_game.id
            AND n.version = games_game.version
    )
)
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_game_lobby_and_reminder_indexes"),
        ("notifications", "0001_initial"),
    ]

    operations = [migrations.RunSQL(CLEAR, migrations.RunSQL.noop)]
