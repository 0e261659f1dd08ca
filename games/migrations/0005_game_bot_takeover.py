"""The game setting ``bot_takeover`` (issue 13)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0004_game_state_as_text")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bot_takeover",
            field=models.BooleanField(
                default=False, help_text="A seat that forfeits is played on by a basic bot."
            ),
        ),
    ]
