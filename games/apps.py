from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games.metrics import GamesByStatusCollector  # models load only once apps are ready
        from unoservice.metrics import scrape

        scrape(GamesByStatusCollector())
