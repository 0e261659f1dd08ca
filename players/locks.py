"""The lock of a player's row, which the per-player limits and changes take one at a time.

``FOR NO KEY UPDATE``, not ``FOR UPDATE``: a game's write inserts rows that point at its
players (notifications), and the check of such a foreign key takes ``FOR KEY SHARE`` on the
player's row, at the write's commit, after the write took its lock on that player's notifications
(``streams/migrations/0004``). Under ``FOR UPDATE`` a request holding the player's row that then
notified the player waited for that write while the write waited for it: a deadlock (found by
fuzzing: a resign racing a rematch of the same player, answered 503). ``FOR NO KEY UPDATE``
still makes two holders of it, or a ``FOR UPDATE`` (``services.bot_account_mark``, which means to
keep seats from being inserted), wait for each other.
"""

from __future__ import annotations

from django.contrib.auth.models import User


def lock_player(player_id: int) -> None:
    """Lock ``player_id``'s row until the transaction ends (inside one)."""
    User.objects.select_for_update(no_key=True).filter(pk=player_id).first()
