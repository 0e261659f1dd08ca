"""Ending a session ends what it opened: its unredeemed stream tickets open nothing, and its open
streams end (within ``UNO_STREAM_SESSION_CHECK``; at the next frame on this suite's server), while
the player's other sessions' streams go on. A stolen phone whose session is ended from the
session list stops seeing the game live too. The stream says why before it ends (``event:
stream_ended``, ``not_authenticated``): a client tells a sign-out from a network drop without
reconnecting to meet a 401."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from tests.support.streams import (
    END,
    PLAYER_STREAM,
    WAIT,
    Message,
    Server,
    Stream,
    new_game,
    open_stream,
)
from tests.support.streams import Seat as StreamSeat
from tests.support.tournaments import body_of

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password 7"
TICKET = "/api/v1/auth/stream-ticket/"


def sign_in(server: Server, user: User) -> dict[str, Any]:
    status, pair = server.request(
        "POST", "/api/v1/auth/token/", body={"username": user.username, "password": PASSWORD}
    )
    assert status == 200, pair
    return dict(pair)


def ticket_of(server: Server, access: str) -> str:
    status, body = server.request("POST", TICKET, access)
    assert status == 200, body
    return str(body["ticket"])


def still_open(stream: Stream) -> bool:
    """A frame (a keep-alive at least) still comes: the stream was not ended."""
    return stream.next() is not END


def until_it_ends(stream: Stream) -> list[Message]:
    """The messages up to the stream's end, which must come within ``WAIT`` seconds (keep-alives
    come every fraction of a second on this server: a stream left open never ends this); its
    last says the sign-in ended, and is returned without it."""
    deadline = time.monotonic() + WAIT
    messages = []
    while (message := stream.next()) is not END:
        messages.append(message)
        assert time.monotonic() < deadline, "the stream goes on after its session ended"
    assert messages, "the stream ended without a word"
    *before, last = messages
    assert (last.event, last.id) == ("stream_ended", None), messages[-3:]
    assert last.json["code"] == "not_authenticated" and last.json["detail"], last.data
    return before


@pytest.fixture
def ada() -> User:
    return User.objects.create_user("ada", password=PASSWORD)


def test_a_ticket_of_an_ended_session_opens_nothing(watchful_server: Server, ada: User) -> None:
    pair = sign_in(watchful_server, ada)
    ticket = ticket_of(watchful_server, pair["access"])
    status, _ = watchful_server.request("POST", "/api/v1/auth/logout/", pair["access"])
    assert status in (200, 204)

    refused = open_stream(watchful_server, f"{PLAYER_STREAM}?ticket={ticket}")
    assert refused.status == 401, refused.body


def test_ending_a_session_ends_its_streams_and_no_other(
    watchful_server: Server, ada: User, streams: list[Stream]
) -> None:
    phone, laptop = sign_in(watchful_server, ada), sign_in(watchful_server, ada)
    bob = User.objects.create_user("bob", password=PASSWORD)
    seats = [
        StreamSeat(ada, laptop["access"]),
        StreamSeat(bob, sign_in(watchful_server, bob)["access"]),
    ]
    game = new_game(watchful_server, seats)
    # The phone watches the game (its access token) and its notifications (a ticket); so does
    # the laptop.
    phone_game = open_stream(
        watchful_server, f"/api/v1/games/{game}/stream/", token=phone["access"]
    )
    phone_feed = open_stream(
        watchful_server, f"{PLAYER_STREAM}?ticket={ticket_of(watchful_server, phone['access'])}"
    )
    laptop_game = open_stream(
        watchful_server, f"/api/v1/games/{game}/stream/", token=laptop["access"]
    )
    streams += [phone_game, phone_feed, laptop_game]
    assert all(s.status == 200 for s in (phone_game, phone_feed, laptop_game))
    assert still_open(phone_game) and still_open(phone_feed)

    # The laptop ends the phone's session from the session list.
    status, body = watchful_server.request(
        "DELETE", f"/api/v1/players/me/sessions/{phone['session']}/", laptop["access"]
    )
    assert status == 204, body

    assert all(m.event is None for m in until_it_ends(phone_game)), "no event once it ended"
    until_it_ends(phone_feed)
    assert still_open(laptop_game)
    assert still_open(laptop_game)


def test_a_password_change_ends_the_other_sessions_streams(
    watchful_server: Server, ada: User, streams: list[Stream]
) -> None:
    """Whoever holds one of the player's other sessions stops seeing the games and the
    notifications live once the password changes; the session that changed it goes on."""
    phone, laptop = sign_in(watchful_server, ada), sign_in(watchful_server, ada)
    phone_feed = open_stream(
        watchful_server, f"{PLAYER_STREAM}?ticket={ticket_of(watchful_server, phone['access'])}"
    )
    laptop_feed = open_stream(
        watchful_server, f"{PLAYER_STREAM}?ticket={ticket_of(watchful_server, laptop['access'])}"
    )
    streams += [phone_feed, laptop_feed]
    assert phone_feed.status == 200 and laptop_feed.status == 200
    assert still_open(phone_feed)

    status, body = watchful_server.request(
        "POST",
        "/api/v1/players/me/password/",
        laptop["access"],
        body={"current_password": PASSWORD, "new_password": "another long password 8"},
    )
    assert status == 200 and body == {"sessions_ended": 1}, body

    until_it_ends(phone_feed)
    assert still_open(laptop_feed)
    assert still_open(laptop_feed)


def test_an_old_keys_streams_end_with_the_key(
    watchful_server: Server, ada: User, streams: list[Stream]
) -> None:
    """A client signed in before sessions (an old DRF key, ``UNO_LEGACY_TOKENS``) kept its open
    streams, and a stream ticket's, after a password change deleted the key: they went on
    streaming the games and the notifications. They end now, as a session's do; and an old key
    of an account deleted since ends its streams too."""
    key = Token.objects.create(user=ada).key
    by_key = open_stream(watchful_server, PLAYER_STREAM, token=key)
    by_ticket = open_stream(
        watchful_server, f"{PLAYER_STREAM}?ticket={ticket_of(watchful_server, key)}"
    )
    streams += [by_key, by_ticket]
    assert by_key.status == 200 and by_ticket.status == 200
    assert still_open(by_key) and still_open(by_ticket)

    laptop = sign_in(watchful_server, ada)
    status, body = watchful_server.request(
        "POST",
        "/api/v1/players/me/password/",
        laptop["access"],
        body={"current_password": PASSWORD, "new_password": "another long password 8"},
    )
    assert status == 200, body
    until_it_ends(by_key)
    until_it_ends(by_ticket)

    bob = User.objects.create_user("bob", password=PASSWORD)
    bobs = open_stream(watchful_server, PLAYER_STREAM, token=Token.objects.create(user=bob).key)
    streams.append(bobs)
    assert still_open(bobs)
    status, body = watchful_server.request(
        "POST",
        "/api/v1/players/me/delete/",
        sign_in(watchful_server, bob)["access"],
        body={"password": PASSWORD},
    )
    assert status == 204, body
    until_it_ends(bobs)


def test_a_logout_ends_the_tournament_stream_it_opened(
    watchful_server: Server, ada: User, streams: list[Stream]
) -> None:
    """The tournament stream needs a sign-in to open, as the others do, but went on streaming
    after the logout; it ends now, saying why, as a game stream does."""
    pair = sign_in(watchful_server, ada)
    body = body_of(name="Signed-out cup", table_size=2, rounds=1, settings=None)
    status, made = watchful_server.request("POST", "/api/v1/tournaments/", pair["access"], body)
    assert status == 201, made
    path = f"/api/v1/tournaments/{made['id']}/stream/"
    by_token = open_stream(watchful_server, path, token=pair["access"])
    by_ticket = open_stream(
        watchful_server, f"{path}?ticket={ticket_of(watchful_server, pair['access'])}"
    )
    streams += [by_token, by_ticket]
    assert by_token.status == 200 and by_ticket.status == 200
    assert still_open(by_token) and still_open(by_ticket)

    status, _ = watchful_server.request("POST", "/api/v1/auth/logout/", pair["access"])
    assert status in (200, 204)

    until_it_ends(by_token)
    until_it_ends(by_ticket)
