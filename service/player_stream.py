"""The player stream's feed: the caller's notifications, as ``streams.sse`` serves them (each
message ``id: <notification id>``, ``event: <kind>``, ``data: <the notification JSON>``)."""

from __future__ import annotations

from notifications.models import Notification
from notifications.selectors import notification_view
from streams import hub
from streams.frames import frame
from streams.sse import Feed


def read(player_id: int, after: int) -> tuple[bytes, int] | None:
    """The frames of ``player_id``'s notifications after id ``after`` (a page the hub's size at
    most) and the last id among them; None when there is none."""
    rows = list(
        Notification.objects.filter(player_id=player_id, id__gt=after).order_by("id")[
            : hub.READ_LIMIT
        ]
    )
    if not rows:
        return None
    return b"".join(frame(row.id, row.kind, notification_view(row)) for row in rows), rows[-1].id


def latest(player_id: int) -> int:
    newest = Notification.objects.filter(player_id=player_id).order_by("-id").first()
    return 0 if newest is None else newest.id


NOTIFICATIONS = Feed(read=read, latest=latest)
