"""Merged lines of work: fairness (issue 16) with checkpoints and tables."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_fairness'),
        ('games', '0007_merge_0006_checkpoint_0006_tables'),
    ]

    operations = [
    ]
