"""Stream tickets (single-use, 60 s, instead of the Authorization header) and the player stream
of notifications, through the real ASGI server."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from notifications.models import Notification
from streams.models import StreamTicket
from tests.support.streams import Seat, Server, Stream, open_stream

TICKETS = "/api/v1/auth/stream-ticket/"
ME = "/api/v1/players/me/stream/"


def ticket_for(server: Server, seat: Seat) -> dict[str, Any]:
    status, body = server.request("POST", TICKETS, seat.token)
    assert status == 200, body
    return dict(body)


def test_a_ticket_opens_one_stream_once(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seat = make_seat()
    issued = ticket_for(server, seat)
    expires = datetime.fromisoformat(issued["expires_at"].replace("Z", "+00:00"))
    assert timedelta(seconds=55) < expires - timezone.now() <= timedelta(seconds=60)

    first = open_stream(server, f"{ME}?ticket={issued['ticket']}")  # no Authorization header
    streams.append(first)
    again = open_stream(server, f"{ME}?ticket={issued['ticket']}")

    assert first.status == 200
    assert (again.status, again.body["code"]) == (401, "not_authenticated")


def test_an_expired_or_unknown_ticket_is_refused(server: Server, make_seat: Any) -> None:
    seat = make_seat()
    issued = ticket_for(server, seat)
    StreamTicket.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    expired = open_stream(server, f"{ME}?ticket={issued['ticket']}")
    unknown = open_stream(server, f"{ME}?ticket=not-a-ticket")

    assert (expired.status, expired.body["code"]) == (401, "not_authenticated")
    assert (unknown.status, unknown.body["code"]) == (401, "not_authenticated")


def test_a_ticket_needs_a_signed_in_caller(server: Server) -> None:
    status, body = server.request("POST", TICKETS)
    assert (status, body["code"]) == (401, "not_authenticated")


def notify(seat: Seat, kind: str = "your_turn") -> Notification:
    """A committed notification row, as a write's outbox would leave it."""
    return Notification.objects.create(player=seat.user, kind=kind, at=timezone.now(), data={})


def test_the_player_stream_sends_the_callers_new_notifications_only(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    me, other = make_seat("ada"), make_seat("bob")
    notify(me, "invited")  # before the stream: not sent without Last-Event-ID
    stream = open_stream(server, ME, token=me.token)
    streams.append(stream)

    notify(other)
    mine = notify(me, "game_started")

    message = stream.next_event()
    assert (message.id, message.event) == (str(mine.id), "game_started")
    assert message.json == {
        "id": mine.id,
        "kind": "game_started",
        "game": None,
        "at": mine.at.isoformat(),
        "read": False,
        "data": {},
    }


def test_the_player_stream_resumes_from_last_event_id(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    me = make_seat()
    first, second, third = notify(me), notify(me, "game_finished"), notify(me, "invited")

    stream = open_stream(server, ME, token=me.token, Last_Event_ID=str(first.id))
    streams.append(stream)
    fourth = notify(me, "player_joined")

    received = [stream.next_event() for _ in range(3)]
    assert [m.id for m in received] == [str(n.id) for n in (second, third, fourth)]
    assert [m.event for m in received] == ["game_finished", "invited", "player_joined"]


def test_notifications_written_by_a_game_reach_the_player_stream_as_the_inbox_shows_them(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    host, guest = make_seat("ada"), make_seat("bob")
    stream = open_stream(server, ME, token=host.token)
    streams.append(stream)
    status, game = server.request("POST", "/api/v1/games/", host.token, {"max_players": 2})
    assert status == 201, game
    assert server.request("POST", f"/api/v1/games/{game['id']}/join/", guest.token)[0] == 200

    status, inbox = server.request("GET", "/api/v1/notifications/", host.token)
    assert status == 200, inbox
    written = sorted(inbox["results"], key=lambda n: n["id"])
    assert written, "joining and starting a game notifies its host"
    received = [stream.next_event() for _ in written]
    assert [m.json for m in received] == written
    assert [m.event for m in received] == [n["kind"] for n in written]


def test_a_reconnection_with_the_spent_ticket_is_told_to_get_a_new_one_which_resumes_with_after(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    me = make_seat()
    spent = ticket_for(server, me)["ticket"]
    first = open_stream(server, f"{ME}?ticket={spent}")
    streams.append(first)
    seen = notify(me)
    assert first.next_event().id == str(seen.id)
    first.close()  # the network drops
    missed = notify(me, "game_finished")

    # What EventSource's own retry sends: the same URL, spent ticket and all, and the last id.
    retry = open_stream(server, f"{ME}?ticket={spent}", Last_Event_ID=str(seen.id))
    fresh = ticket_for(server, me)["ticket"]
    again = open_stream(server, f"{ME}?ticket={fresh}&after={seen.id}")  # a new EventSource
    streams.append(again)

    assert (retry.status, retry.body["code"]) == (401, "not_authenticated")
    assert "Get a new one" in retry.body["detail"] and "?after=" in retry.body["detail"]
    assert again.status == 200
    assert again.next_event().id == str(missed.id)
