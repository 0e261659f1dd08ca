"""Notifications that respect attention, through the real ASGI server: a player with a live game's
stream open gets no ``your_turn`` for it (they see their turn come); once the stream closes they
come again; a correspondence game keeps every one, watched or not."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from notifications.models import Notification, Watching
from tests.support.streams import WAIT, Seat, Server, Stream, new_game, play, watch


def eventually(holds: Callable[[], bool], what: str) -> None:
    """Wait, within ``WAIT`` seconds, for ``holds`` (another process's commit) to hold."""
    deadline = time.monotonic() + WAIT
    while not holds():
        assert time.monotonic() < deadline, f"not within {WAIT} s: {what}"
        time.sleep(0.02)


def turns(seat: Seat, game: str) -> int:
    return Notification.objects.filter(player=seat.user, game_id=game, kind="your_turn").count()


def watching(seat: Seat, game: str) -> bool:
    return Watching.objects.filter(player=seat.user, game_id=game).exists()


def test_a_watched_live_game_sends_no_turns_until_the_stream_closes(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], turn_timeout=60, target_score=100_000)
    before = turns(ada, game), turns(bob, game)
    stream = watch(server, game, ada, streams)
    eventually(lambda: watching(ada, game), "the stream is noted as watching")

    version = play(server, game, [ada, bob], random.Random(3), moves=12)
    stream.events_until(version)  # the stream was open and served every move

    assert turns(ada, game) == before[0]  # ada watched: none of her turns was notified
    assert turns(bob, game) > before[1]  # bob did not: his were

    stream.close()
    eventually(lambda: not watching(ada, game), "the closed stream is forgotten")
    play(server, game, [ada, bob], random.Random(4), moves=12)

    assert turns(ada, game) > before[0]  # she left: her turns are notified again


def test_a_watched_correspondence_game_keeps_every_notification(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    game = new_game(server, [ada, bob], turn_timeout=86_400, target_score=100_000)
    before = turns(ada, game)
    stream = watch(server, game, ada, streams)
    eventually(lambda: watching(ada, game), "the stream is noted as watching")

    version = play(server, game, [ada, bob], random.Random(3), moves=12)
    stream.events_until(version)

    assert turns(ada, game) > before
