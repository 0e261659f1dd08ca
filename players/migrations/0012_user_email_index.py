"""An index on the upper-cased e-mail address of ``auth_user``, for the password reset's lookup.

``POST auth/password-reset/`` finds the accounts of an address ignoring case (Django's
``email__iexact``: ``UPPER(email) = UPPER(%s)``), which without it reads every account. Partial:
most accounts have no address. Created here, on Django's own table, as the username's index is.
"""

from django.db import migrations

INDEX = "players_email_upper"


class Migration(migrations.Migration):
    dependencies = [("players", "0011_deleted_account")]

    operations = [
        migrations.RunSQL(
            f"CREATE INDEX {INDEX} ON auth_user (UPPER(email)) WHERE email <> '';",
            reverse_sql=f"DROP INDEX {INDEX};",
        )
    ]
