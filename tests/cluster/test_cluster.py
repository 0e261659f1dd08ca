"""Two web nodes, two workers, a replica (issue 28, part 2): what a client sees when a write goes
through one node and a read through the other, when a node or a worker dies, and while the
replica lags. Every wait is on a condition with a deadline, never a sleep."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from bench.cluster import Cluster, Proc, act, next_action
from bench.harness import Client
from games.models import Event, Game
from tests.support.streams import (
    GAMES,
    Seat,
    Server,
    Stream,
    as_log,
    event_log,
    new_game,
    play,
    view,
    watch,
)

pytestmark = pytest.mark.django_db(transaction=True)

# What a Celery worker logs when it takes a bot's turn (and holds it for the bot's delay).
RECEIVED = re.compile(r"Task games\.bot_turn\[[^]]+\] received")
WAIT = 60.0  # seconds: a bound for a loaded 2-core machine, not an expected duration


def wait_for(what: str, condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll ``condition`` until it is truthy (its value is returned), for at most ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)  # polling a condition another process makes true
    return value


def node(proc: Proc) -> Server:
    assert proc.port is not None and proc.process is not None
    return Server(proc.port, proc.process, proc.log)


def front(cluster: Cluster) -> Server:
    return node(cluster.nginx)


def listed_version(server: Server, game: str, seat: Seat) -> int | None:
    """The game's version as the caller's game list shows it (a read that may lag)."""
    status, body = server.request("GET", f"{GAMES}?mine=true", seat.token)
    assert status == 200, body
    return next((row["version"] for row in body["results"] if row["id"] == game), None)


def test_a_stream_through_node_b_delivers_every_event_of_actions_through_node_a_once_in_order(
    cluster: Cluster, make_seat: Any, streams: list[Stream]
) -> None:
    a, b = node(cluster.nodes[0]), node(cluster.nodes[1])
    seats = [make_seat(), make_seat()]
    game = new_game(a, seats)
    stream = watch(b, game, seats[0], streams, "?after=0")

    version = play(a, game, seats, random.Random(28), 40)
    received = stream.events_until(version)

    assert [int(m.id or 0) for m in received] == list(range(1, version + 1))
    assert as_log(received) == event_log(a, game, seats[0])


def test_a_web_node_killed_under_load_loses_no_acknowledged_action(
    cluster: Cluster, make_seat: Any
) -> None:
    """Clients play through nginx; node A dies (``kill -9``) while they do. A client that got no
    answer sends the same action again with the same Idempotency-Key, and nginx takes it to node
    B. Every action acknowledged is in the log, and none is in it twice."""
    pairs = [[make_seat(), make_seat()] for _ in range(3)]
    games = [new_game(front(cluster), seats) for seats in pairs]
    moves = 25
    acknowledged: dict[str, list[int]] = {game: [] for game in games}
    retried: list[int] = []
    failures: list[BaseException] = []

    def client(game: str, seats: list[Seat], seed: int) -> None:
        http = Client(cluster.port)
        tokens = [seat.token for seat in seats]
        rng = random.Random(seed)
        try:
            for _ in range(moves):
                seat, action = next_action(http, game, tokens, rng)
                answer, retries = act(http, game, tokens[seat], action)
                acknowledged[game].append(int(answer["version"]))
                retried.append(retries)
                if answer["status"] != "active":
                    return
        except BaseException as failure:
            failures.append(failure)
        finally:
            http.close()

    threads = [
        threading.Thread(target=client, args=(game, seats, i))
        for i, (game, seats) in enumerate(zip(games, pairs, strict=True))
    ]
    for thread in threads:
        thread.start()
    try:
        wait_for("a third of the actions", lambda: sum(map(len, acknowledged.values())) >= 25)
        cluster.nodes[0].kill()
        for thread in threads:
            thread.join(WAIT * 2)
        assert not failures, failures
        assert not any(thread.is_alive() for thread in threads)
    finally:
        cluster.restart(cluster.nodes[0])

    assert sum(map(len, acknowledged.values())) > 25  # acknowledged after node A died, too
    for game, versions in acknowledged.items():
        row = Game.objects.get(pk=game)
        seqs = list(Event.objects.filter(game=row).order_by("seq").values_list("seq", flat=True))
        assert versions == sorted(set(versions)), versions  # each answer after the one before
        assert row.version == versions[-1]  # nothing applied that was not acknowledged
        assert seqs == list(range(1, row.version + 1))  # and every acknowledged one is there


def bot_turns_taken(worker: Proc) -> int:
    return len(RECEIVED.findall(worker.output()))


def test_a_worker_killed_holding_a_bot_turn_the_other_worker_plays_it(
    cluster: Cluster, make_seat: Any
) -> None:
    """The worker that took the bot's turn dies with it (``kill -9``) while it holds it, before the
    bot's delay is over. The other worker goes on and, through the beat's sweep, the bot plays its
    turn anyway, once."""
    http = Client(cluster.port)
    human = make_seat()
    rng = random.Random(7)
    taken = [bot_turns_taken(worker) for worker in cluster.workers]
    holder: Proc | None = None
    try:
        status, body = http.call("POST", GAMES, human.token, {"max_players": 2, "bots": ["basic"]})
        assert status == 201 and body["status"] == "active", body
        game = body["id"]
        # The person plays until the turn passes to the bot (a skip, a reverse or a draw card
        # played between two keeps it with them; the deal is not seeded).
        for _ in range(50):
            if body["round"]["current_seat"] != 0:
                break
            body, _ = act(http, game, human.token, rng.choice(body["you"]["legal_actions"]))
        version = int(body["version"])
        assert body["round"]["current_seat"] == 1, body  # the bot's turn

        holder = wait_for(
            "a worker took the bot's turn",
            lambda: next(
                (w for w, n in zip(cluster.workers, taken, strict=True) if bot_turns_taken(w) > n),
                None,
            ),
        )
        holder.kill()
        assert Game.objects.get(pk=game).version == version  # it died before the bot moved

        played = wait_for(
            "the bot's move",
            lambda: Event.objects.filter(game_id=game, seq__gt=version).first(),
        )
        assert (played.seq, played.seat) == (version + 1, 1)  # the bot's move came next
    finally:
        http.close()
        if holder is not None:
            cluster.restart(holder)


def test_the_replicas_lag_never_shows_in_a_read_that_must_see_its_own_write(
    cluster: Cluster, make_seat: Any, streams: list[Stream]
) -> None:
    """Replay paused on the replica: actions through the primary show in the game view, the
    event log of a game in play and a stream's catch-up at once; the game list (a read marked as
    allowed to lag) still shows the game as it was, until the replica replays again."""
    a, b = node(cluster.nodes[0]), node(cluster.nodes[1])
    replica = cluster.replica
    assert replica is not None
    seats = [make_seat(), make_seat()]
    game = new_game(a, seats)
    finished = new_game(a, [make_seat(), seats[1]])
    replica.catch_up()
    before = view(a, game, seats[0])["version"]
    assert wait_for("the list shows the game", lambda: listed_version(a, game, seats[0])) == before

    replica.pause()
    try:
        version = play(a, game, seats, random.Random(3), 5)
        status, ended = a.request("POST", f"{GAMES}{finished}/resign/", seats[1].token)
        assert status == 200 and ended["status"] == "finished", ended

        assert view(b, game, seats[0])["version"] == version
        assert event_log(b, game, seats[0])[-1]["seq"] == version
        stream = watch(b, game, seats[0], streams, f"?after={before}")
        assert int(stream.events_until(version)[-1].id or 0) == version
        # The finished game's log: the replica has not seen its end, so the primary answers.
        assert event_log(b, finished, seats[1])[-1]["seq"] == ended["version"]
        # A list may lag: it is read on the replica, which has not replayed the actions.
        assert listed_version(b, game, seats[0]) == before < version
    finally:
        replica.resume()

    replica.catch_up()
    assert listed_version(b, game, seats[0]) == version
