"""The UNO game service: Django project package."""
