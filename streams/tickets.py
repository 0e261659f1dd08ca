"""Single-use stream tickets: issued to a signed-in player, redeemed once within their lifetime.

A ticket travels in a URL (``?ticket=``) because ``EventSource`` cannot send an ``Authorization``
header; tokens never do. It is good for one connection, for ``UNO_STREAM_TICKET_SECONDS``, and
belongs to the session (sign-in) it was issued under: once that session ends (logout, the session
list, a reused refresh token) the ticket opens nothing; one issued with an old DRF key opens
nothing once the account has no key (a password change or a logout deleted it).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from players.sessions import old_key_signs_in
from streams.models import StreamTicket

TICKET_BYTES = 32


@dataclass(frozen=True)
class Issued:
    ticket: str
    expires_at: datetime


@dataclass(frozen=True)
class Redeemed:
    """Who a ticket signs in, and the session it was issued under (None: an old key's)."""

    player: User
    session_id: uuid.UUID | None


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()


def ticket_issue(*, player: User, session_id: uuid.UUID | None = None) -> Issued:
    """A new ticket for ``player`` under ``session_id``; expired tickets are swept on the way
    (the table stays small)."""
    now = timezone.now()
    StreamTicket.objects.filter(expires_at__lte=now).delete()
    ticket = secrets.token_urlsafe(TICKET_BYTES)
    expires_at = now + timedelta(seconds=settings.UNO_STREAM_TICKET_SECONDS)
    StreamTicket.objects.create(
        digest=_digest(ticket), player=player, expires_at=expires_at, session_id=session_id
    )
    return Issued(ticket, expires_at)


def ticket_redeem(ticket: str) -> Redeemed | None:
    """The player a live ticket was issued to, once: the ticket is used up. None for a used,
    expired or unknown ticket, one of a session that ended, or an inactive player."""
    digest = _digest(ticket)
    found = (
        StreamTicket.objects.filter(digest=digest, expires_at__gt=timezone.now())
        .filter(Q(session__isnull=True) | Q(session__ended_at__isnull=True))
        .select_related("player")
        .first()
    )
    if found is None:
        return None
    # Of two connections racing with one ticket, only the one whose DELETE removed it gets in.
    deleted, _ = StreamTicket.objects.filter(digest=digest).delete()
    if not deleted or not found.player.is_active:
        return None
    # A ticket made without a session (an old DRF key's, or the admin's cookie) opens nothing
    # once that sign-in is gone: the key deleted by a password change or a logout opened a
    # stream with a ticket made just before, as a session's ticket does not.
    if found.session_id is None and not old_key_signs_in(found.player_id, None):
        return None
    return Redeemed(found.player, found.session_id)
