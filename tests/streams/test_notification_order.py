"""A player's notification ids follow the order their writes commit (on PostgreSQL, two
transactions at once), so the player stream and a resumption from ``Last-Event-ID`` miss none."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games.models import Game
from notifications.models import Notification
from tests.support.streams import WAIT, Seat, Server, Stream, new_game, open_stream

ME = "/api/v1/players/me/stream/"


def notify(seat: Seat, kind: str, game: Game | None = None) -> Notification:
    return Notification.objects.create(
        player=seat.user, kind=kind, game=game, at=timezone.now(), data={}
    )


class Write(threading.Thread):
    """One transaction in a thread of its own: ``steps`` run in it in turn, each after ``go``
    lets it; it commits after the last."""

    def __init__(self, *steps: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.steps = steps
        self.go = threading.Semaphore(0)
        self.done = threading.Semaphore(0)
        self.results: list[Any] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with transaction.atomic():
                for step in self.steps:
                    self.go.acquire()
                    self.results.append(step())
                    self.done.release()
        except BaseException as failure:
            self.failure = failure
            self.done.release()
        finally:
            connection.close()

    def step(self) -> None:
        """Let the next step run and wait until it has."""
        self.go.release()
        assert self.done.acquire(timeout=WAIT), "the step hangs"

    def finish(self) -> None:
        self.join(timeout=WAIT)
        assert not self.is_alive(), "the transaction hangs"
        if self.failure is not None:
            raise self.failure


def blocked_or_done(write: Write) -> bool:
    """Wait until ``write``'s transaction waits for a lock, or has ended (returns False)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if not write.is_alive() or write.done.acquire(blocking=False):
            return False
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            (waiting,) = cursor.fetchone()
        if waiting:
            return True
        time.sleep(0.005)  # polling the server's own view of its locks, bounded by WAIT
    raise AssertionError("the second write neither waited nor ended")


def test_a_notification_that_commits_later_gets_the_higher_id_and_reaches_the_stream(
    server: Server, make_seat: Any, streams: list[Stream]
) -> None:
    me = make_seat()
    stream = open_stream(server, ME, token=me.token)
    streams.append(stream)
    slow = Write(lambda: notify(me, "your_turn"), lambda: None)  # inserts first, commits last
    quick = Write(lambda: notify(me, "game_finished"))
    slow.start()
    quick.start()

    slow.step()  # slow's row is in, uncommitted
    quick.go.release()  # quick inserts and would commit at once
    waited = blocked_or_done(quick)
    slow.step()
    slow.finish()
    quick.finish()
    first, second = slow.results[0], quick.results[0]

    assert waited, "the second write of the player's notifications waits for the first's commit"
    assert first.id < second.id
    received = [stream.next_event(), stream.next_event()]
    assert [m.id for m in received] == [str(first.id), str(second.id)]
    resumed = open_stream(server, ME, token=me.token, Last_Event_ID=str(first.id))
    streams.append(resumed)
    assert resumed.next_event().id == str(second.id)


def test_two_writes_notifying_the_same_players_in_opposite_orders_do_not_deadlock(
    server: Server, make_seat: Any
) -> None:
    ada, bob = make_seat("ada"), make_seat("bob")
    one, two = (Game.objects.get(pk=new_game(server, [ada, bob])) for _ in range(2))
    first = Write(lambda: notify(ada, "your_turn", one), lambda: notify(bob, "your_turn", one))
    second = Write(lambda: notify(bob, "your_turn", two), lambda: notify(ada, "your_turn", two))
    first.start()
    second.start()

    first.step()  # ada's row of game one
    second.go.release()  # bob's of game two: without a lock on both players it would go in
    waited = blocked_or_done(second)
    first.step()  # bob's of game one
    first.finish()
    if waited:
        assert second.done.acquire(timeout=WAIT), "the waiting write goes on once the first ends"
    second.step()  # ada's of game two
    second.finish()

    assert waited
    ids = [n.id for n in (*first.results, *second.results)]
    assert ids == sorted(ids)
