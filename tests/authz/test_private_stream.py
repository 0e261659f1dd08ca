"""A private game's stream, opened while seated, ends once its viewer has no seat any more: a
player who left a waiting private game went on receiving its events and its chat (every other
call answers them 404). Asked as the session is, within ``UNO_STREAM_SESSION_CHECK`` (at the
next frame on this server); the players who stay go on streaming."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.streams.conftest import make_seat, streams, watchful_server
from tests.support.streams import END, WAIT, Message, Seat, Server, Stream, watch

__all__ = ["make_seat", "streams", "watchful_server"]

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/api/v1/games/"


def until_it_ends(stream: Stream) -> list[Message]:
    deadline = time.monotonic() + WAIT
    messages = []
    while (message := stream.next()) is not END:
        messages.append(message)
        assert time.monotonic() < deadline, "the stream goes on"
    return messages


def asked(server: Server, method: str, path: str, seat: Seat, body: Any = None) -> Any:
    status, answer = server.request(method, path, seat.token, body)
    assert status in (200, 201), answer
    return answer


def test_leaving_a_private_game_ends_its_stream(
    watchful_server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob, cy = make_seat("ada"), make_seat("bob"), make_seat("cy")
    server = watchful_server
    game = asked(server, "POST", GAMES, ada, {"max_players": 3, "private": True})
    by_code = {"code": game["invite_code"]}
    asked(server, "POST", f"{GAMES}join-by-code/", bob, by_code)
    left = watch(server, game["id"], bob, streams)
    stays = watch(server, game["id"], ada, streams)

    asked(server, "POST", f"{GAMES}{game['id']}/leave/", bob)
    asked(server, "POST", f"{GAMES}join-by-code/", make_seat("dee"), by_code)
    started = asked(server, "POST", f"{GAMES}join-by-code/", cy, by_code)
    assert started["status"] == "active"
    asked(server, "POST", f"{GAMES}{game['id']}/chat/", ada, {"text": "just us now"})

    ended = [m for m in until_it_ends(left) if m.event]
    # nothing of the game, only why the stream ends: the 404 a reconnection gets
    assert [(m.event, m.id, m.json["code"]) for m in ended] == [("stream_ended", None, "not_found")]
    assert stays.next_event().event is not None  # the seated players' streams go on
    status, _ = server.request("GET", f"{GAMES}{game['id']}/stream/", bob.token)
    assert status == 404
