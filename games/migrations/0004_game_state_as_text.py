"""The engine snapshot is kept as text: PostgreSQL need not parse and print it on every action."""

import games.fields
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_game_roster"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="state",
            field=games.fields.JSONTextField(
                blank=True, help_text="Engine state after `version`.", null=True
            ),
        ),
    ]
