"""The player stream's feed: the caller's notifications, as ``streams.sse`` serves them (each
message ``id: <notification id>``, ``event: <kind>``, ``data: <the notification JSON>``), after
an opening ``snapshot`` of where the caller stands (``snapshot_frame``)."""

from __future__ import annotations

from typing import Any

from games.engine import limits
from games.models import Game, GameStatus, Seat
from games.selectors import sees_its_seat
from notifications.models import Notification
from notifications.selectors import notification_view
from streams import hub
from streams.frames import frame
from streams.sse import Feed

# The opening message's name: not a notification kind.
SNAPSHOT = "snapshot"


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


def current_games(player_id: int) -> tuple[list[dict[str, Any]], bool]:
    """The waiting and active games ``player_id`` sits in, oldest first, at most
    ``limits.SNAPSHOT_GAMES`` (and whether there are more): for each, where it stands (its
    version, whose turn) and the player's seat, nothing of any hand."""
    seats = list(
        Seat.objects.filter(
            player_id=player_id, game__status__in=(GameStatus.WAITING, GameStatus.ACTIVE)
        )
        .select_related("game")
        .only(
            "number",
            "status",
            "game__id",
            "game__status",
            "game__version",
            "game__current_seat",
            "game__turn_deadline",
            "game__roster",
        )
        .order_by("game__created_at", "game_id")[: limits.SNAPSHOT_GAMES + 1]
    )
    games = [
        {
            "id": str(seat.game.pk),
            "status": seat.game.status,
            "version": seat.game.version,
            "seat": seat.number,
            "seat_status": seat.status,
            "current_seat": seat.game.current_seat,
            "my_turn": _moves_now(seat.game, seat.number),
            "turn_deadline": seat.game.turn_deadline.isoformat()
            if seat.game.turn_deadline
            else None,
        }
        for seat in seats[: limits.SNAPSHOT_GAMES]
    ]
    return games, len(seats) > limits.SNAPSHOT_GAMES


def _moves_now(game: Game, seat: int) -> bool:
    """The game waits for the seat's player: not for a bot that plays it on for them."""
    return (
        game.status == GameStatus.ACTIVE
        and game.current_seat == seat
        and sees_its_seat(game.roster[seat])
    )


def snapshot_frame(player_id: int, cursor: int, received: list[Any], sent: list[Any]) -> bytes:
    """The player stream's first message: ``id: <cursor>`` (where its notifications go on from,
    so a reconnection with that Last-Event-ID misses nothing), ``event: snapshot``, ``data:``
    the caller's current games and open challenges (``received``, ``sent``: as the challenge API
    shows them). A notification that commits while it is read may be both in it and sent after
    it: a client takes the news again, never misses it."""
    games, more = current_games(player_id)
    body = {
        "games": games,
        "more_games": more,
        "challenges": {"received": received, "sent": sent},
    }
    return frame(cursor, SNAPSHOT, body)
