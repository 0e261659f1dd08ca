"""Two lines of work merged: checkpoints (issue 11) and tables (issue 16)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_checkpoint'),
        ('games', '0006_tables'),
    ]

    operations = [
    ]
