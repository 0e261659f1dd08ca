"""The lock of a player's row, which the per-player limits and changes take one at a time.

``FOR NO KEY UPDATE``, not ``FOR UPDATE``: a game's write inserts rows that point at its
players (notifications), and the check of such a foreign key takes ``FOR KEY SHARE`` on the
player's row, at the write's commit, after the write took its lock on that player's notifications
(``streams/migrations/0004``). Under ``FOR UPDATE`` a request holding the player's row that then
notified the player waited for that write while the write waited for it: a deadlock (found by
fuzzing: a resign racing a rematch of the same player, answered 503). ``FOR NO KEY UPDATE``
still makes two holders of it, or a ``FOR UPDATE`` (``services.bot_account_mark``, which means to
keep seats from being inserted), wait for each other.

The notifications' own locks, one per player (``NOTIFIED_LOCK_SPACE``), are taken by that trigger
for the players of the game a write holds, in the order of their ids. A transaction that writes
several games (an account's deletion, a tournament's round opening its tables) takes them all
first, with ``lock_notified``: taken game by game, it would hold the players of one game while it
waits for a player of the next, whom a write elsewhere holds while it waits for one of the first
game's. Likewise a write that notifies players outside its game's roster (a rematch's
invitations, ``notifications.outbox.write_facts``): the trigger would take each outsider's lock
at its own row, after the roster's.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import connection

# The advisory locks' first key: the players' notification locks (streams/migrations/0004),
# apart from any other advisory lock.
NOTIFIED_LOCK_SPACE = 0x554E4F4E  # "UNON"


def lock_player(player_id: int) -> None:
    """Lock ``player_id``'s row until the transaction ends (inside one)."""
    User.objects.select_for_update(no_key=True).filter(pk=player_id).first()


def lock_notified(player_ids: Iterable[int]) -> None:
    """Take the notification locks of ``player_ids`` until the transaction ends, in the order of
    their ids, as the notifications' trigger takes them (which then finds them held: a
    transaction's advisory locks are its own to take again), in one statement however many.
    Without PostgreSQL, nothing: the database has one writer at a time."""
    ids = sorted(set(player_ids))
    if connection.vendor != "postgresql" or not ids:
        return
    with connection.cursor() as cursor:
        # The subquery's ORDER BY keeps it from being pulled up: the locks follow its order.
        cursor.execute(
            "SELECT count(pg_advisory_xact_lock(%s::integer, p))"
            " FROM (SELECT p FROM unnest(%s::integer[]) AS p ORDER BY p) AS ordered",
            [NOTIFIED_LOCK_SPACE, ids],
        )
