"""The bytes of one Server-Sent Events message, for the game and the player streams alike."""

from __future__ import annotations

import json
from typing import Any

from games import selectors

# What the streams render: an ``Event`` row, or a row read in bulk (``streams.hub.Row``).
Logged = selectors.StoredEvent


def frame(message_id: int, event: str, data: Any) -> bytes:
    """One SSE message. Compact JSON has no line breaks, so ``data`` is one line."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {message_id}\nevent: {event}\ndata: {body}\n\n".encode()


def event_frame(row: Logged, seat: int | None, revealed: bool) -> bytes:
    """The event as the event log serves it to ``seat`` (``games.selectors``: the one visibility
    function decides what the seat sees)."""
    return frame(row.seq, row.type, selectors.event_body(row, seat, revealed))


CHAT_EVENT = "chat"


def chat_frame(message: Any) -> bytes:
    """A chat message (``service.chat``'s body) as an SSE message named ``chat``, without an
    ``id:`` line: a browser's Last-Event-ID stays the last event's seq, so the game stream's
    catch-up is untouched; the message's own id is in its data (reconnect with ``chat_after``)."""
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return f"event: {CHAT_EVENT}\ndata: {body}\n\n".encode()


# A stream's last message when reconnecting would not help: ``event: stream_ended``, ``data:
# {"code", "detail"}`` (an error code of the API, as its error bodies have it), without an
# ``id:`` line (a browser's Last-Event-ID stays the last event's). A stream that ends without
# it dropped (or its process stops: ``sse.closing_frame``), and the client reconnects.
STREAM_ENDED = "stream_ended"


def ended_frame(code: str, detail: str) -> bytes:
    """Why the stream ends for good: its sign-in ended (``not_authenticated``: a reconnection
    would get that 401), or its game did (``game_not_active``: no event will follow)."""
    body = json.dumps({"code": code, "detail": detail}, separators=(",", ":"), ensure_ascii=False)
    return f"event: {STREAM_ENDED}\ndata: {body}\n\n".encode()
