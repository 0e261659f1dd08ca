"""Stream tickets: what a browser's ``EventSource`` (which cannot send headers) signs in with."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StreamTicket(models.Model):
    """A single-use ticket. Only its SHA-256 is stored: a leaked table opens no stream."""

    digest = models.CharField(max_length=64, primary_key=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stream_tickets"
    )
    expires_at = models.DateTimeField(db_index=True)
    # The sign-in it was issued under (None: an old never-expiring key): a ticket of a session
    # that ended opens nothing, and the stream it opened ends with the session.
    session = models.ForeignKey(
        "players.Session", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    def __str__(self) -> str:
        return f"Stream ticket of player {self.player_id} until {self.expires_at:%H:%M:%S}"
