from django.apps import AppConfig


class ServiceConfig(AppConfig):
    """The application layer: no models. When the apps are ready it registers the reactions to
    every write (``service.subscribers.SUBSCRIBERS``); its Celery tasks are found through it."""

    name = "service"
    label = "service"

    def ready(self) -> None:
        from service import facts, subscribers  # they import models: only once apps are ready

        facts.register(subscribers.SUBSCRIBERS)
