from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import longpoll, services, tasks

        for hook in (tasks.schedule_deadline, longpoll.notify):
            if hook not in services.after_commit_hooks:
                services.after_commit_hooks.append(hook)
