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

    def __str__(self) -> str:
        return f"Stream ticket of player {self.player_id} until {self.expires_at:%H:%M:%S}"
