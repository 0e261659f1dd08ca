from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def fill_rosters(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    for game in Game.objects.all():
        seats = Seat.objects.filter(game=game).select_related("player").order_by("number")
        game.roster = [{"id": s.player_id, "username": s.player.username} for s in seats]
        game.save(update_fields=["roster"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_event_append_only")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="roster",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="The seated players, by seat: [{id, username}].",
            ),
        ),
        migrations.RunPython(fill_rosters, migrations.RunPython.noop),
    ]
