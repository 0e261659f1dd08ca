"""The player stream opens with a snapshot of where the caller stands (issue 26, part 3): their
waiting and active games (whose turn, the version) and open challenges, then the notifications;
a reconnection with ``Last-Event-ID`` gets a fresh snapshot and then what it missed. Through the
real ASGI server."""

from __future__ import annotations

from typing import Any

from notifications.models import Notification
from tests.support.streams import GAMES, PLAYER_STREAM, Seat, Server, Stream, open_stream

BOT_ACCOUNT = "/api/v1/players/me/bot-account/"
CHALLENGES = "/api/v1/challenges/"


def _ok(answer: tuple[int, Any], status: int = 200) -> Any:
    code, body = answer
    assert code == status, body
    return body


def _challenge(server: Server, challenger: Seat, challenged: Seat) -> str:
    body = {"to": challenged.user.username}  # the one place this file names the fields
    return str(_ok(server.request("POST", CHALLENGES, challenger.token, body), 201)["id"])


def _entry(server: Server, game_id: str, seat: Seat) -> dict[str, Any]:
    """What the snapshot must say of ``game_id`` for ``seat``, from the game view."""
    view = _ok(server.request("GET", f"{GAMES}{game_id}/", seat.token))
    current = view["round"]["current_seat"] if view["round"] else None
    mine = view["you"]["seat"]
    return {
        "id": game_id,
        "status": view["status"],
        "version": view["version"],
        "seat": mine,
        "seat_status": view["seats"][mine]["status"],
        "current_seat": current,
        "my_turn": view["status"] == "active" and current == mine,
        "turn_deadline": view["round"]["turn_deadline"] if view["round"] else None,
    }


def _latest_id(seat: Seat) -> int:
    newest = Notification.objects.filter(player=seat.user).order_by("-id").first()
    return 0 if newest is None else newest.id


def test_a_new_account_opens_on_an_empty_snapshot(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seat = make_seat("fresh")
    stream = open_stream(server, PLAYER_STREAM, token=seat.token)
    streams.append(stream)

    assert stream.snapshot is not None and stream.snapshot.id == "0"
    assert stream.snapshot.json == {
        "games": [],
        "more_games": False,
        "challenges": {"received": [], "sent": []},
    }


def test_the_snapshot_tells_the_games_and_open_challenges_then_the_news_and_again_on_reconnecting(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob, program = make_seat("ada"), make_seat("bob"), make_seat("prog")
    _ok(server.request("POST", BOT_ACCOUNT, program.token))
    name = program.user.username
    waiting = _ok(
        server.request("POST", GAMES, ada.token, {"max_players": 3, "bot_accounts": [name]}), 201
    )["id"]
    active = _ok(
        server.request("POST", GAMES, bob.token, {"max_players": 2, "bot_accounts": [name]}), 201
    )["id"]
    received = _challenge(server, ada, program)
    sent = _challenge(server, program, bob)
    answered = _challenge(server, bob, program)
    _ok(server.request("POST", f"{CHALLENGES}{answered}/decline/", program.token))

    stream = open_stream(server, PLAYER_STREAM, token=program.token)
    streams.append(stream)

    snapshot = stream.snapshot
    assert snapshot is not None and snapshot.id == str(_latest_id(program))
    body = snapshot.json
    assert body["games"] == [_entry(server, waiting, program), _entry(server, active, program)]
    assert [game["status"] for game in body["games"]] == ["waiting", "active"]
    assert body["more_games"] is False
    assert [c["id"] for c in body["challenges"]["received"]] == [received]
    assert [c["id"] for c in body["challenges"]["sent"]] == [sent]
    listed = _ok(server.request("GET", CHALLENGES, program.token))["challenges"]
    assert body["challenges"]["received"] == [c for c in listed if c["id"] == received]
    assert "hand" not in str(body)

    # Then the news: bob fills the waiting game, then it starts (told in that order).
    _ok(server.request("POST", f"{GAMES}{waiting}/join/", bob.token))
    joined, news = stream.next_event(), stream.next_event()
    assert joined.event == "player_joined" and joined.json["game"] == waiting
    assert news.event == "game_started" and news.json["game"] == waiting
    assert int(snapshot.id or 0) < int(joined.id or 0) < int(news.id or 0)
    stream.close()

    # Reconnecting from the snapshot's id: a fresh snapshot, then what came since.
    again = open_stream(server, PLAYER_STREAM, token=program.token, Last_Event_ID=snapshot.id)
    streams.append(again)
    assert again.snapshot is not None and again.snapshot.id == snapshot.id
    restated = again.snapshot.json["games"]
    assert restated == [_entry(server, waiting, program), _entry(server, active, program)]
    assert restated[0]["status"] == "active"
    missed = Notification.objects.filter(player=program.user, id__gt=int(snapshot.id or 0))
    replayed = again.events_until(_latest_id(program))
    assert [m.id for m in replayed] == [str(n.id) for n in missed.order_by("id")]
    assert news.id in [m.id for m in replayed]
