"""The keys of the tables: invite codes, the settings quick match compares, and its lock.

An invite code is ``INVITE_CODE_LENGTH`` letters drawn by ``secrets`` from an alphabet without the
letters people misread (0/O, 1/I/L, U/V): about 49 bits, so guessing one is hopeless at any
request rate the throttles allow; it is not derived from the game id. A game's ``match_key`` is
the SHA-256 of its settings as the game view shows them (``selectors.settings_of``, less
``private``), so a setting added to the view is compared by quick match too.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from django.db import connection

from games.engine import limits
from games.models import Game

# Crockford-like: digits 2-9 and capitals without I, L, O, U (30 letters).
INVITE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_invite_code() -> str:
    """A fresh code no game holds (the unique column is the last word)."""
    while True:
        code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(limits.INVITE_CODE_LENGTH))
        if not Game.objects.filter(invite_code=code).exists():
            return code


def normalized_code(raw: str) -> str:
    """What a person may type for a code: any case, with spaces or dashes between groups."""
    return "".join(ch for ch in raw.upper() if ch not in " -")


def settings_key(game: Game) -> str:
    from games.selectors import settings_of  # selectors imports the models this module needs

    shown = {name: value for name, value in settings_of(game).items() if name != "private"}
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()


def lock_settings(key: str) -> None:
    """Serialize quick match for one set of settings until the transaction ends.

    A transaction-scoped advisory lock keyed by the settings' hash: two callers with the same
    settings decide one after the other (join the oldest game with a free seat, or create one),
    so there are never two half-filled games of the same settings; callers with other settings
    do not wait. A row lock could not do it: when there is no game yet there is no row to lock,
    and ``SKIP LOCKED`` would let both callers create one. SQLite (one writer at a time) needs
    nothing.
    """
    if connection.vendor != "postgresql":
        return
    number = int.from_bytes(bytes.fromhex(key[:16]), "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])
