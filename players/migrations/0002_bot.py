"""Bots: users the server plays (issue 13)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_username_unique_ignoring_case"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Bot",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="bot",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "level",
                    models.CharField(
                        choices=[("random", "Random"), ("basic", "Basic"), ("strong", "Strong")],
                        max_length=16,
                    ),
                ),
            ],
        ),
    ]
