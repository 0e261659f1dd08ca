"""The documented shapes of the streams' endpoints: their query strings and the ticket."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.engine import limits
from unoservice.api import StrictSerializer

TICKET_HELP = (
    "A stream ticket (`POST /api/v1/auth/stream-ticket/`) instead of the Authorization header, "
    "for `EventSource`. Single-use: it opens one connection, and a used, expired or unknown one "
    "gets 401 `not_authenticated`, reconnections included (EventSource's own retry resends the "
    "spent ticket). To reconnect, get a new ticket and open a new `EventSource` with "
    "`?after=<the last id received>`."
)


class StreamQuerySerializer(StrictSerializer):
    """What every stream's query takes: its ticket, which a browser's ``EventSource`` (no
    headers) opens it with (the tournament stream once lacked it, and refused every ticket)."""

    ticket = serializers.CharField(required=False, max_length=200, help_text=TICKET_HELP)


class GameStreamQuerySerializer(StreamQuerySerializer):
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=limits.MAX_INT,
        help_text="Send the events after this seq; by default only events after the current one.",
    )
    chat_after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=limits.MAX_INT,
        help_text=(
            "Send the chat messages after this id first (the `id` in the data of the last `chat` "
            "frame received): a reconnection neither loses nor repeats chat. Without it, only "
            "messages sent from now on. `chat` frames have no `id:` line, so Last-Event-ID stays "
            "the last event's seq."
        ),
    )


class PlayerStreamQuerySerializer(StreamQuerySerializer):
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=limits.MAX_INT,
        help_text=(
            "Send the notifications after this id (`Last-Event-ID` wins over it); by default only "
            "new ones."
        ),
    )


class TournamentStreamQuerySerializer(StreamQuerySerializer):
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=limits.MAX_INT,
        help_text="Go on after this seq of the log (0: from its first entry).",
    )


@extend_schema_serializer(component_name="StreamTicket")
class StreamTicketSerializer(serializers.Serializer[dict[str, Any]]):
    ticket = serializers.CharField(help_text="Pass it as `?ticket=` to open one stream.")
    expires_at = serializers.DateTimeField()
