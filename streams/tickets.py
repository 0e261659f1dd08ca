"""Single-use stream tickets: issued to a signed-in player, redeemed once within their lifetime.

A ticket travels in a URL (``?ticket=``) because ``EventSource`` cannot send an ``Authorization``
header; tokens never do. It is good for one connection, for ``UNO_STREAM_TICKET_SECONDS``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from streams.models import StreamTicket

TICKET_BYTES = 32


@dataclass(frozen=True)
class Issued:
    ticket: str
    expires_at: datetime


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()


def ticket_issue(*, player: User) -> Issued:
    """A new ticket for ``player``; expired tickets are swept on the way (the table stays small)."""
    now = timezone.now()
    StreamTicket.objects.filter(expires_at__lte=now).delete()
    ticket = secrets.token_urlsafe(TICKET_BYTES)
    expires_at = now + timedelta(seconds=settings.UNO_STREAM_TICKET_SECONDS)
    StreamTicket.objects.create(digest=_digest(ticket), player=player, expires_at=expires_at)
    return Issued(ticket, expires_at)


def ticket_redeem(ticket: str) -> User | None:
    """The player a live ticket was issued to, once: the ticket is used up. None for a used,
    expired or unknown ticket (or an inactive player)."""
    digest = _digest(ticket)
    found = (
        StreamTicket.objects.filter(digest=digest, expires_at__gt=timezone.now())
        .select_related("player")
        .first()
    )
    if found is None:
        return None
    # Of two connections racing with one ticket, only the one whose DELETE removed it gets in.
    deleted, _ = StreamTicket.objects.filter(digest=digest).delete()
    return found.player if deleted and found.player.is_active else None
