from django.apps import AppConfig


class ServiceConfig(AppConfig):
    """The application layer: no models; its Celery tasks are found through this app."""

    name = "service"
    label = "service"
