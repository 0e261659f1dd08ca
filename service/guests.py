"""Guest accounts: claimed (``guest_claim``), or left unclaimed and removed ``GUEST_DAYS`` after
their creation, with their waiting games, by a daily beat task
(``service.tasks.remove_stale_guests``).

A removed guest's waiting games go: those it created are abandoned (a game of its own with bots is
of no use to anyone; the players seated there are told, ``game_abandoned``), and it leaves the
others. Its finished and running games stay, played out
by their clocks; its seats there still show its generated ``guest-…`` name. The account itself is
deleted when it sat in no game at all; otherwise it is closed (no token, inactive), since a game's
seats and log keep their players.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.engine.limits import GUEST_DAYS
from games.models import Seat
from notifications.services import rename_in_notifications
from players import services as players
from players.models import Guest, Session
from service.accounts import leave_waiting_games

log = logging.getLogger(__name__)


def guest_claim(*, user: User, username: str, password: str) -> User:
    """The guest ``user`` becomes a full account named ``username`` (``players.services``: its
    tables show the new name), and the other players' notifications that named the guest name
    it so too, in the same transaction (those of a waiting game it left as well): the inbox,
    the player stream and the export said the ``guest-…`` name for good (as a deleted account's
    are renamed, ``service.accounts``)."""
    with transaction.atomic():
        claimed = players.guest_claim(user=user, username=username, password=password)
        games = list(Seat.objects.filter(player=claimed).values_list("game_id", flat=True))
        rename_in_notifications(claimed, games)
    return claimed


def stale_guest_ids(limit: int) -> list[int]:
    """Guests created more than ``GUEST_DAYS`` ago, unclaimed and not yet removed."""
    cutoff = timezone.now() - timedelta(days=GUEST_DAYS)
    rows = Guest.objects.filter(created_at__lt=cutoff, user__is_active=True).order_by("created_at")
    return list(rows.values_list("user_id", flat=True)[:limit])


def remove_guest(user_id: int) -> bool:
    """Remove the stale guest ``user_id``; False when it is no longer one (claimed meanwhile)."""
    with transaction.atomic():
        guest = Guest.objects.select_for_update().filter(user_id=user_id).first()
        if guest is None:
            return False
        user = User.objects.get(pk=user_id)
        leave_waiting_games(user)
        Token.objects.filter(user=user).delete()
        Session.objects.filter(user=user).delete()  # its tokens with it
        if not Seat.objects.filter(player=user).exists() and not user.games_created.exists():
            user.delete()
        else:
            user.is_active = False
            user.save(update_fields=["is_active"])
    return True


def remove_stale_guests(limit: int = 500) -> int:
    """The beat task's work: remove every stale guest (at most ``limit`` a run); how many."""
    removed = sum(remove_guest(user_id) for user_id in stale_guest_ids(limit))
    if removed:
        log.info("removed %d guest account(s) unclaimed for %d days", removed, GUEST_DAYS)
    return removed
