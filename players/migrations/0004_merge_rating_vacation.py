"""Merged lines of work: clocks (issue 16) with the others."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0003_rating'),
        ('players', '0003_vacation'),
    ]

    operations = [
    ]
