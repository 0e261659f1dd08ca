"""A game's write and a request that locks a player's row, at once, for the same player: both
go through. Found by fuzzing the contract: a resign racing a rematch (or a new game with a bot)
of the same player deadlocked and answered 503, when the request's ``FOR UPDATE`` of the player
blocked the foreign-key check of the write's notifications at its commit (``players.locks``).

The race is made deterministic: the write is held open, notifications written, until the other
request is seen waiting for the write's lock on the player's notifications; then it commits."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games import engine
from games.models import Game, GameStatus
from notifications.models import Notification
from service.lobby import NewGame, game_create, game_join
from service.unit_of_work import game_write

WAIT = 30.0  # seconds: how long the other request may take to reach the lock it waits on


def _waiting_for_a_notification_lock() -> bool:
    # The trigger of ``streams/migrations/0004`` takes advisory locks, one per player.
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def _create_with_a_bot(player: User) -> Game:
    try:
        return game_create(player=player, spec=NewGame(max_players=2, bots=("basic",)))
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_write_notifying_a_player_and_a_request_locking_them_both_go_through() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the notifications' lock order is PostgreSQL's (a trigger)")
    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    game = game_create(player=ada, spec=NewGame(max_players=2))
    game = game_join(player=bob, game_id=game.pk)
    assert game.status == GameStatus.ACTIVE

    with ThreadPoolExecutor(1) as pool:
        created: Future[Game]
        with game_write(game.pk) as write:  # ada resigns: the game ends, both are notified
            events, after = engine.resign(write.state, 0)
            write.append(events, after)
            created = pool.submit(_create_with_a_bot, ada)  # locks ada's row, then notifies her
            deadline = time.monotonic() + WAIT
            while not _waiting_for_a_notification_lock():
                assert not created.done(), created.exception()
                assert time.monotonic() < deadline, "the new game never waited for the write"
                threading.Event().wait(0.01)
        new = created.result(timeout=WAIT)

    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert new.status == GameStatus.ACTIVE
    kinds = set(Notification.objects.filter(player=ada).values_list("kind", flat=True))
    assert {"game_finished", "game_started"} <= kinds
