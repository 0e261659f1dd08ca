"""The table chat through the real ASGI server: each seat gets the other's `chat` frames once and
in order, beside the game's events, whose Last-Event-ID catch-up they leave alone; players kept
apart get none of each other's; a reconnection with `chat_after` loses and repeats nothing; a
muted viewer gets none; no chat frame shows a card; a message over the rate limit is refused
with 429 and Retry-After, and never streamed."""

from __future__ import annotations

import http.client
import json
import random
import time
from typing import Any

from games import chat_rules
from players.models import Block
from tests.support.streams import (
    GAMES,
    HOST,
    WAIT,
    Message,
    Seat,
    Server,
    Stream,
    new_game,
    play,
    view,
    watch,
)

CARD_WORDS = ("red-", "blue-", "green-", "yellow-", "wild", "hand", "deck", "cards")


def say(server: Server, game: str, seat: Seat, **body: Any) -> dict[str, Any]:
    status, answer = server.request("POST", f"{GAMES}{game}/chat/", seat.token, body)
    assert status == 201, answer
    return dict(answer)


def say_refused(
    server: Server, game: str, seat: Seat, **body: Any
) -> tuple[int, dict[str, Any], http.client.HTTPMessage]:
    """A chat message the server refuses: the status, the error body and the headers (which
    ``Server.request`` leaves out; looked up by name in any case)."""
    conn = http.client.HTTPConnection(HOST, server.port, timeout=WAIT)
    try:
        conn.request(
            "POST",
            f"{GAMES}{game}/chat/",
            body=json.dumps(body),
            headers={"Content-Type": "application/json", "Authorization": f"Token {seat.token}"},
        )
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read()), answer.headers
    finally:
        conn.close()


def chats_until(stream: Stream, last_id: int) -> list[Message]:
    """Every `chat` frame up to the one with message id ``last_id`` (events skipped)."""
    received: list[Message] = []
    while not received or received[-1].json["id"] < last_id:
        message = stream.next_event()
        assert message.event is not None, "the stream ended"
        if message.event == "chat":
            assert message.id is None, message  # no id: Last-Event-ID stays the seq
            received.append(message)
    return received


def no_chat_within(stream: Stream, seconds: float) -> list[Message]:
    """The chat frames that arrive within ``seconds`` (the test expects none)."""
    deadline = time.monotonic() + seconds
    found = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = stream.next(left)
        except AssertionError:
            break
        if message.event == "chat":
            found.append(message)
    return found


def test_two_seats_get_each_others_chat_once_in_order_and_no_card(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], target_score=100_000)
    opened = [watch(server, game, seat, streams, "?after=0") for seat in (ada, bob)]
    sent = []
    for number in range(4):
        speaker = (ada, bob)[number % 2]
        sent.append(say(server, game, speaker, text=f"line {number} https://evil.example"))
    sent.append(say(server, game, ada, reaction="well_played"))
    version = play(server, game, [ada, bob], random.Random(2), moves=4)

    for stream in opened:
        frames = chats_until(stream, sent[-1]["id"])
        assert [f.json for f in frames] == sent  # each once, in order, as the API answered
        for frame in frames:
            assert set(frame.json) == {
                "id",
                "author",
                "seat",
                "channel",
                "text",
                "reaction",
                "version",
                "at",
            }
            shown = json.dumps(frame.json)
            assert not any(word in shown for word in CARD_WORDS), shown
        # The game's events still come, numbered by seq, up to the version played.
        seqs: list[int] = []
        while not seqs or seqs[-1] < version:
            message = stream.next_event()
            if message.event != "chat":
                seqs.append(int(message.id or 0))
        assert seqs == sorted(set(seqs))
    assert no_chat_within(opened[0], 0.5) == []  # nothing twice


def test_players_kept_apart_get_none_of_each_others_chat(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob, cy = make_seat("ada"), make_seat("bob"), make_seat("cy")
    game = new_game(server, [ada, bob, cy], target_score=100_000)
    # Bob blocks Ada at the table (before it, they could not have sat down together).
    Block.objects.create(blocker=bob.user, blocked=ada.user)
    ada_stream, bob_stream, cy_stream = (watch(server, game, s, streams) for s in (ada, bob, cy))
    from_ada = say(server, game, ada, text="from ada")
    from_bob = say(server, game, bob, text="from bob")
    last = say(server, game, cy, reaction="nice")

    assert [f.json["id"] for f in chats_until(ada_stream, last["id"])] == [
        from_ada["id"],
        last["id"],
    ]
    assert [f.json["id"] for f in chats_until(bob_stream, last["id"])] == [
        from_bob["id"],
        last["id"],
    ]
    assert [f.json["id"] for f in chats_until(cy_stream, last["id"])] == [
        from_ada["id"],
        from_bob["id"],
        last["id"],
    ]


def test_a_reconnection_with_chat_after_loses_and_repeats_no_chat_and_keeps_the_seq(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], target_score=100_000)
    version = view(server, game, ada)["version"]
    first = watch(server, game, bob, streams)
    early = say(server, game, ada, text="before the drop")
    assert [f.json["id"] for f in chats_until(first, early["id"])] == [early["id"]]
    first.close()
    missed = [say(server, game, ada, text=f"missed {n}") for n in range(2)]

    again = watch(server, game, bob, streams, f"?after={version}&chat_after={early['id']}")
    later = say(server, game, ada, reaction="oops")
    received = chats_until(again, later["id"])
    assert [f.json["id"] for f in received] == [m["id"] for m in missed] + [later["id"]]


def test_a_muted_viewer_gets_no_chat_frames_until_unmuted(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], target_score=100_000)
    stream = watch(server, game, bob, streams)
    status, _ = server.request("POST", f"{GAMES}{game}/chat/mute/", bob.token)
    assert status == 200
    say(server, game, ada, text="unheard")
    assert no_chat_within(stream, 1.0) == []
    status, _ = server.request("DELETE", f"{GAMES}{game}/chat/mute/", bob.token)
    assert status == 200
    heard = say(server, game, ada, text="heard")
    assert [f.json["text"] for f in chats_until(stream, heard["id"])] == ["heard"]


def test_a_message_over_the_rate_limit_is_refused_with_retry_after_and_never_streamed(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], target_score=100_000)
    bob_stream = watch(server, game, bob, streams)
    started = time.monotonic()
    sent = [say(server, game, ada, text=f"quick {n}") for n in range(chat_rules.RATE_MESSAGES)]

    status, body, headers = say_refused(server, game, ada, text="one too many")

    # All six within the window, or the sixth would rightly have gone through.
    assert time.monotonic() - started < chat_rules.RATE_SECONDS
    assert status == 429, body
    assert body["code"] == "chat_too_fast"
    retry_after = int(headers.get("Retry-After", "0"))
    assert 1 <= retry_after <= chat_rules.RATE_SECONDS
    assert body["retry_after"] == retry_after
    # Bob's own message after the refusal closes the run of frames (everyone gets their own):
    # between Ada's five and it, no sixth.
    fence = say(server, game, bob, text="fence")
    frames = chats_until(bob_stream, fence["id"])
    assert [f.json["id"] for f in frames] == [m["id"] for m in sent] + [fence["id"]]
    assert all(f.json["text"] != "one too many" for f in frames)
    status, listed = server.request("GET", f"{GAMES}{game}/chat/?after=0", bob.token)
    assert status == 200
    assert [m["text"] for m in listed["messages"]] == [m["text"] for m in sent] + ["fence"]
