from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import services, tasks

        if tasks.schedule_deadline not in services.after_commit_hooks:
            services.after_commit_hooks.append(tasks.schedule_deadline)
