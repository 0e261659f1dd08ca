"""The UNO game service: Django project package."""

from unoservice.celery import app as celery_app

__all__ = ("celery_app",)
