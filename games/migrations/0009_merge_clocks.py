"""Merged lines of work: clocks (issue 16) with the others."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_clocks'),
        ('games', '0008_merge_fairness'),
    ]

    operations = [
    ]
