"""The game stream through the real ASGI server: every event once, in order, redacted per viewer,
only after it committed; resuming loses nothing; the stream of a finished game ends."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, cast

import pytest
from django.db import connection, transaction
from django.http import StreamingHttpResponse

from games import engine
from service.unit_of_work import game_write
from streams import hub
from tests.support.players import PASSWORD, client_for
from tests.support.streams import (
    END,
    GAMES,
    QUICK_KEEPALIVE,
    Server,
    Stream,
    as_log,
    event_log,
    hidden_cards_shown,
    new_game,
    open_stream,
    play,
    view,
    watch,
)
from tests.support.timeouts import started_game


def test_two_seats_and_a_spectator_each_see_every_event_once_in_order_redacted_for_them(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    spectator = make_seat("eve")
    game = new_game(server, seats, target_score=100_000)
    watchers = [*seats, spectator]
    opened = [watch(server, game, viewer, streams, "?after=0") for viewer in watchers]

    version = play(server, game, seats, random.Random(5), moves=30)

    for number, (viewer, stream) in enumerate(zip(watchers, opened, strict=True)):
        received = as_log(stream.events_until(version))
        assert received == event_log(server, game, viewer)  # each event once, in order, as served
        assert [frame["seq"] for frame in received] == list(range(1, version + 1))
        seat = number if viewer is not spectator else None
        assert not [frame for frame in received if hidden_cards_shown(frame, seat)]


def test_a_seat_sees_its_own_dealt_hand_and_drawn_cards_but_no_one_elses(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    opened = [watch(server, game, seat, streams, "?after=0") for seat in seats]
    version = play(server, game, seats, random.Random(11), moves=20)

    for number, stream in enumerate(opened):
        received = as_log(stream.events_until(version))
        dealt = next(f for f in received if f["type"] == "round_started")["data"]
        hand = view(server, game, seats[number])
        assert "hand" in dealt and len(dealt["hand"]) == 7, dealt
        assert hand["you"]["seat"] == number
        for frame in received:
            if frame["type"] == "cards_drawn":
                assert ("cards" in frame["data"]) == (frame["seat"] == number), frame


def test_a_player_who_left_a_seat_to_a_bot_streams_the_game_as_a_spectator(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    """With ``bot_takeover`` the seat's cards (those the bot draws too) were streamed to the
    player who had resigned it."""
    ada, bob, cy, eve = (make_seat(name) for name in ("ada", "bob", "cy", "eve"))
    game = new_game(server, [ada, bob, cy], bot_takeover=True, target_score=100_000)
    status, body = server.request("POST", f"{GAMES}{game}/resign/", bob.token)
    assert status == 200 and body["seats"][1]["bot"] == "basic", body
    opened = [watch(server, game, viewer, streams, "?after=0") for viewer in (bob, eve)]

    rng, people = random.Random(3), {0: ada, 2: cy}
    for _ in range(20):  # the bot's moves follow at once (UNO_BOT_DELAY=0)
        seen = view(server, game, ada)
        pending = seen["round"]["pending"]
        mover = people[pending["seat"] if pending else seen["round"]["current_seat"]]
        legal = view(server, game, mover)["you"]["legal_actions"]
        status, body = server.request(
            "POST", f"{GAMES}{game}/actions/", mover.token, rng.choice(legal)
        )
        assert status == 200, body
    version = view(server, game, ada)["version"]

    as_bob, as_eve = (as_log(stream.events_until(version)) for stream in opened)
    assert as_bob == as_eve == event_log(server, game, eve)
    assert any(f["type"] == "cards_drawn" and f["seat"] == 1 for f in as_bob)
    assert not [frame for frame in as_bob if hidden_cards_shown(frame, None)]


def test_a_seat_left_to_a_bot_off_its_turn_reaches_an_open_stream(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    """Such a resignation appended no event: an open stream (and so the web client's table)
    was not told that a bot plays the seat now."""
    ada, bob, cy = (make_seat(name) for name in ("ada", "bob", "cy"))
    game = new_game(server, [ada, bob, cy], bot_takeover=True, target_score=100_000)
    before = view(server, game, ada)
    leaving = next(s for s in (1, 2) if s != before["round"]["current_seat"])
    stream = watch(server, game, ada, streams)
    status, body = server.request("POST", f"{GAMES}{game}/resign/", (bob, cy)[leaving - 1].token)
    assert status == 200 and body["version"] == before["version"] + 1, body

    received = as_log(stream.events_until(before["version"] + 1))
    assert [(f["type"], f["seat"], f["data"]) for f in received] == [
        ("seat_taken_over", leaving, {"reason": "resign"})
    ]


def test_with_neither_after_nor_last_event_id_the_stream_starts_after_the_current_version(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    current = view(server, game, seats[0])["version"]
    stream = watch(server, game, seats[1], streams)

    version = play(server, game, seats, random.Random(3), moves=1)

    received = as_log(stream.events_until(version))
    assert [f["seq"] for f in received] == list(range(current + 1, version + 1))
    assert received == event_log(server, game, seats[1])[current:]


def test_a_dropped_stream_that_reconnects_with_last_event_id_misses_nothing(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    rng = random.Random(8)
    first = watch(server, game, seats[0], streams, "?after=0")
    version = play(server, game, seats, rng, moves=5)
    before = first.events_until(version)
    first.close()  # the connection drops

    later = play(server, game, seats, rng, moves=8)  # played while nobody watched
    # A browser reconnects to the same URL (its old ``after``) with the last id it saw.
    assert before[-1].id is not None  # events_until read up to an id
    again = open_stream(
        server, f"{GAMES}{game}/stream/?after=0", token=seats[0].token, Last_Event_ID=before[-1].id
    )
    streams.append(again)
    after = again.events_until(later)

    assert as_log(before + after) == event_log(server, game, seats[0])
    assert int(after[0].id or 0) == int(before[-1].id or 0) + 1


def _end_listening_sessions() -> int:
    """End the server's LISTEN sessions from PostgreSQL's side (as a restart or failover
    would); how many there were."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [hub.LISTENER_NAME],
        )
        (ended,) = cursor.fetchone() or (0,)
    return int(ended)


def test_streams_go_on_after_postgresql_ends_the_listening_connection(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    rng = random.Random(13)
    stream = watch(server, game, seats[0], streams, "?after=0")
    version = play(server, game, seats, rng, moves=2)
    stream.events_until(version)

    assert _end_listening_sessions() >= 1
    # Played while the listener is gone or coming back: its notices are lost, not the events.
    later = play(server, game, seats, rng, moves=6)

    received = as_log(stream.events_until(later))
    assert [f["seq"] for f in received] == list(range(version + 1, later + 1))
    assert received == event_log(server, game, seats[0])[version:]


def test_a_refused_action_is_never_streamed(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    stream = watch(server, game, seats[0], streams)
    state = view(server, game, seats[0])
    idle = seats[1 - state["round"]["current_seat"]]

    status, body = server.request("POST", f"{GAMES}{game}/actions/", idle.token, {"action": "draw"})
    assert status in (409, 422), body
    version = play(server, game, seats, random.Random(1), moves=1)

    received = as_log(stream.events_until(version))
    assert [f["seq"] for f in received] == list(range(state["version"] + 1, version + 1))
    assert received == event_log(server, game, seats[0])[state["version"] :]


def test_a_rolled_back_write_is_never_streamed(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats, target_score=100_000)
    stream = watch(server, game, seats[0], streams)
    start = view(server, game, seats[0])["version"]

    class RolledBack(Exception):
        pass

    # A write that appended events (and so sent its NOTIFY) and then failed before committing.
    with pytest.raises(RolledBack), transaction.atomic(), game_write(game) as write:
        seat = write.state.actor
        legal = engine.legal_actions(write.state, seat)[0]
        events, after = engine.act(write.state, seat, legal)
        write.append(events, after)
        raise RolledBack

    version = play(server, game, seats, random.Random(2), moves=1)
    received = as_log(stream.events_until(version))
    assert received == event_log(server, game, seats[0])[start:]
    assert received[0]["seq"] == start + 1


def test_an_idle_stream_gets_keep_alive_comments(
    quick_server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(quick_server, seats)
    stream = watch(quick_server, game, seats[0], streams)

    comments = [stream.next(timeout=QUICK_KEEPALIVE * 50).comment for _ in range(3)]

    assert comments == ["keep-alive"] * 3


def assert_game_over(stream: Stream) -> None:
    """The stream's next event says the game ended (no ``id:``: Last-Event-ID stays the last
    seq), and the stream ends: a client knows not to reconnect."""
    said = stream.next_event()
    assert (said.event, said.id) == ("stream_ended", None), said
    assert said.json["code"] == "game_not_active" and said.json["detail"], said.data
    assert stream.next_event() is END


def test_the_stream_of_a_finished_game_ends_after_its_last_event(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats)
    live = watch(server, game, seats[0], streams, "?after=0")
    status, body = server.request("POST", f"{GAMES}{game}/resign/", seats[1].token)
    assert status == 200 and body["status"] == "finished", body
    version = body["version"]

    received = live.events_until(version)
    assert_game_over(live)
    # Opened afterwards, it sends the whole log (revealed, as the log serves a finished game).
    late = watch(server, game, seats[1], streams, "?after=0")
    replay = late.events_until(version)
    assert_game_over(late)
    # Reconnected after the last event, it says at once that nothing will follow.
    assert_game_over(watch(server, game, seats[0], streams, f"?after={version}"))
    assert as_log(replay) == event_log(server, game, seats[1])
    assert [f["seq"] for f in as_log(received)] == list(range(1, version + 1))


def test_the_stream_of_a_waiting_game_ends_when_its_host_deletes_their_account(
    quick_server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    """A deleted host's waiting game is abandoned without an event (its version stays 0): the
    trigger sent no notice, and a seated player's stream of it went on with keep-alives for a
    game that would never start. Now it ends, as a finished game's does."""
    host, guest = make_seat("ada"), make_seat("bob")
    host.user.set_password(PASSWORD)
    host.user.save(update_fields=["password"])
    status, body = quick_server.request("POST", GAMES, host.token, {"max_players": 3})
    assert status == 201, body
    game = str(body["id"])
    status, body = quick_server.request("POST", f"{GAMES}{game}/join/", guest.token)
    assert status == 200 and body["status"] == "waiting", body
    stream = watch(quick_server, game, guest, streams)
    # Idle, its first read done: the hub holds the game as waiting.
    assert stream.next(timeout=QUICK_KEEPALIVE * 50).comment == "keep-alive"

    gone = {"password": PASSWORD}
    status, body = quick_server.request("POST", "/api/v1/players/me/delete/", host.token, gone)

    assert status == 204, body
    assert view(quick_server, game, guest)["status"] == "abandoned"
    assert_game_over(stream)


@pytest.mark.parametrize(
    ("query", "headers", "status", "code"),
    [
        ("?after=-1", {}, 400, "invalid"),
        ("?after=x", {}, 400, "invalid"),
        ("?token=abc", {}, 400, "invalid"),
        ("", {"Last_Event_ID": "seven"}, 400, "invalid"),
    ],
)
def test_bad_stream_requests_get_a_json_error(
    server: Server,
    make_seat: Any,
    query: str,
    headers: dict[str, str],
    status: int,
    code: str,
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(server, seats)
    answer = open_stream(server, f"{GAMES}{game}/stream/{query}", token=seats[0].token, **headers)
    assert (answer.status, answer.body["code"]) == (status, code)
    assert answer.headers["content-type"] == "application/json"


def test_an_unknown_game_is_404_and_no_token_is_401(server: Server, make_seat: Any) -> None:
    seat = make_seat()
    missing = open_stream(
        server, f"{GAMES}5f0c6f9e-2b1a-4a53-9a3e-6c1f7d1e2a10/stream/", token=seat.token
    )
    anonymous = open_stream(server, f"{GAMES}5f0c6f9e-2b1a-4a53-9a3e-6c1f7d1e2a10/stream/")
    assert (missing.status, missing.body["code"]) == (404, "not_found")
    assert (anonymous.status, anonymous.body["code"]) == (401, "not_authenticated")


def test_many_streams_of_every_seat_and_spectators_on_one_game_each_get_their_own_redaction(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob"), make_seat("cy")]
    spectators = [make_seat("eve"), make_seat("fay")]
    game = new_game(server, seats, target_score=100_000)
    # Two streams a seat and two spectators, over both server processes: the streams of one
    # viewpoint share its frames, and never see another's.
    viewers = [*seats, *seats, *spectators]
    opened = [watch(server, game, viewer, streams, "?after=0") for viewer in viewers]
    played = play(server, game, seats, random.Random(17), moves=12)
    late = watch(server, game, seats[1], streams, "?after=3")  # starts behind the others
    late_spectator = watch(server, game, spectators[0], streams, f"?after={played}")

    version = play(server, game, seats, random.Random(18), moves=12)

    checks = [(v, s, 0) for v, s in zip(viewers, opened, strict=True)]
    checks += [(seats[1], late, 3), (spectators[0], late_spectator, played)]
    for viewer, stream, after in checks:
        received = as_log(stream.events_until(version))
        assert received == event_log(server, game, viewer)[after:]  # once, in order, as served
        seat = seats.index(viewer) if viewer in seats else None
        assert not [frame for frame in received if hidden_cards_shown(frame, seat)]
        dealt = [f["data"] for f in received if f["type"] == "round_started"]
        assert all(("hand" in d) == (seat is not None) for d in dealt), dealt


def test_the_wsgi_servers_stream_says_when_a_game_is_over(make_seat: Any) -> None:
    """Under a WSGI server (no event loop to wait on) a stream sends what the log holds and
    ends, and the client reconnects after ``retry``: an active game's says nothing more, a
    finished game's says, after its last event, that no event will follow."""
    ada, bob = make_seat("ada"), make_seat("bob")
    game = started_game([ada.user, bob.user], turn_timeout=3600)
    url = f"{GAMES}{game.pk}/stream/?after=0"

    def backlog() -> bytes:
        answer = client_for(ada.user).get(url, HTTP_ACCEPT="text/event-stream")
        assert answer.status_code == 200 and isinstance(answer, StreamingHttpResponse)
        return b"".join(cast(Iterable[bytes], answer.streaming_content))

    assert b"stream_ended" not in backlog()
    resigned = client_for(bob.user).post(f"{GAMES}{game.pk}/resign/")
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"

    frames = backlog().decode().split("\n\n")
    assert frames[-2].startswith("event: stream_ended\ndata: "), frames[-3:]
    assert json.loads(frames[-2].split("data: ", 1)[1])["code"] == "game_not_active"
    assert '"type":"game_ended"' in frames[-3], frames[-3]
