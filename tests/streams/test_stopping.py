"""A web process that stops (a deploy's SIGTERM, a worker recycled) ends its streams at once, each
with a ``retry`` hint, instead of holding them silent through its graceful timeout (30 s); a
client that reconnects with ``Last-Event-ID`` to the process that takes over misses nothing."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.harness import children
from tests.support.streams import (
    KEEPALIVE,
    WAIT,
    Server,
    Stream,
    as_log,
    assert_ends_with_a_retry_hint,
    database_url,
    ending,
    event_log,
    free_port,
    new_game,
    open_stream,
    play,
    start_server,
    stop_server,
    wait_until_up,
    watch,
)


@pytest.fixture
def own_server(django_db_blocker: Any, tmp_path: Path, transactional_db: None) -> Iterator[Server]:
    """A server of this test's own (it gets stopped), with one worker."""
    url = database_url(django_db_blocker)
    running = start_server(
        url, free_port(), tmp_path / "server.log", KEEPALIVE, {"WEB_CONCURRENCY": "1"}
    )
    try:
        yield running
    finally:
        stop_server(running)


def test_a_stopped_worker_ends_its_streams_at_once_and_a_resumed_stream_misses_nothing(
    own_server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(own_server, seats, target_score=100_000)
    rng = random.Random(3)
    stream = watch(own_server, game, seats[0], streams, "?after=0")
    player = open_stream(own_server, "/api/v1/players/me/stream/", token=seats[1].token)
    streams.append(player)
    version = play(own_server, game, seats, rng, moves=5)
    seen = as_log(stream.events_until(version))

    (worker,) = children(own_server.process.pid)
    stopped = time.monotonic()
    os.kill(worker, signal.SIGTERM)  # what a recycled worker or a deploy does to it
    last_frames = ending(stream)
    assert time.monotonic() - stopped < WAIT  # not the 30 s graceful timeout
    assert_ends_with_a_retry_hint(last_frames)
    assert_ends_with_a_retry_hint(ending(player))
    seen += as_log([m for m in last_frames if m.event is not None])

    wait_until_up(own_server)  # gunicorn's new worker
    version = play(own_server, game, seats, rng, moves=5)
    again = open_stream(
        own_server,
        f"/api/v1/games/{game}/stream/",
        token=seats[0].token,
        Last_Event_ID=str(seen[-1]["seq"]),
    )
    streams.append(again)
    seen += as_log(again.events_until(version))
    assert seen == event_log(own_server, game, seats[0])


def test_a_stopped_server_ends_its_streams_and_exits_well_within_its_graceful_timeout(
    own_server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    seats = [make_seat("ada"), make_seat("bob")]
    game = new_game(own_server, seats, target_score=100_000)
    opened = [watch(own_server, game, seat, streams, "?after=0") for seat in seats]
    version = play(own_server, game, seats, random.Random(8), moves=3)
    for stream in opened:
        stream.events_until(version)

    stopped = time.monotonic()
    own_server.process.terminate()
    for stream in opened:
        assert_ends_with_a_retry_hint(ending(stream))
    own_server.process.wait(timeout=WAIT)
    assert time.monotonic() - stopped < WAIT
