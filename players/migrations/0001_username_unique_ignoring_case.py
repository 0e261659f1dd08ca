"""A unique index on the lower-cased username of ``auth_user``.

Registration refuses a name that equals another ignoring case, but two registrations racing
past that check both got in (issue 11): the index makes the database the judge, and the loser's
``IntegrityError`` becomes a 409 ``username_taken``. Created here, on Django's own table, since
the project uses Django's ``User`` as is.
"""

from django.db import migrations

INDEX = "players_username_lower_unique"


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username));",
            reverse_sql=f"DROP INDEX {INDEX};",
        )
    ]
