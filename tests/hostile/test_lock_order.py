"""A game's write and a request that locks a player's row, at once, for the same player: both
go through. Found by fuzzing the contract: a resign racing a rematch (or a new game with a bot)
of the same player deadlocked and answered 503, when the request's ``FOR UPDATE`` of the player
blocked the foreign-key check of the write's notifications at its commit (``players.locks``).
Likewise an account's deletion and a move in one of its games.

Each race is made deterministic: the write is held open until the other request is seen waiting
for a lock the write holds; then it commits."""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games import engine
from games.eventstore import load_state
from games.models import Game, GameStatus
from notifications.models import Notification
from players.models import DeletedAccount
from service.accounts import account_delete
from service.lobby import NewGame, game_create, game_join
from service.play import game_resign
from service.tables import game_rematch
from service.unit_of_work import game_write
from tests.support.locks import WAIT, await_waiting, taken_in_order, write_elsewhere
from tests.support.players import PASSWORD


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
            await_waiting(created, "the new game", "advisory")
        new = created.result(timeout=WAIT)

    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert new.status == GameStatus.ACTIVE
    kinds = set(Notification.objects.filter(player=ada).values_list("kind", flat=True))
    assert {"game_finished", "game_started"} <= kinds


def _delete(player: User) -> None:
    try:
        account_delete(user=player, password=PASSWORD)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_an_account_deleted_while_a_move_in_its_second_game_notifies_it_both_go_through() -> None:
    """The deletion resigns its games in the order of their ids; the second one's row is held by
    a move of the other seat, which notifies the deleted player. The deletion takes its games'
    rows before any player's notification lock (``service.accounts``), so it waits for the
    move, which commits; taken game by game, it held the player's lock from the first game's
    resign, and the two waited for each other (PostgreSQL ended one: 503 ``conflict_retry``)."""
    if connection.vendor != "postgresql":
        pytest.skip("the notifications' lock order is PostgreSQL's (a trigger)")
    ada = User.objects.create_user("ada", password=PASSWORD)
    others = [User.objects.create_user(name) for name in ("bob", "cy")]
    games = []
    for other in others:
        game = game_create(player=ada, spec=NewGame(max_players=2))
        games.append(game_join(player=other, game_id=game.pk))
    first, second = sorted(games, key=lambda game: game.pk)
    mover = 1 - [entry["id"] for entry in second.roster].index(ada.pk)

    with ThreadPoolExecutor(1) as pool:
        deleted: Future[None]
        with game_write(second.pk) as write:  # the other seat resigns: ada is notified
            deleted = pool.submit(_delete, ada)
            await_waiting(deleted, "the deletion")
            events, after = engine.resign(write.state, mover)
            write.append(events, after)
        deleted.result(timeout=WAIT)

    assert DeletedAccount.objects.filter(user=ada).exists()
    for game in (first, second):
        assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert load_state(Game.objects.get(pk=second.pk)).winner == 1 - mover  # the move stood


def _rematch(player: User, game_id: Any) -> None:
    try:
        game_rematch(player=player, game_id=game_id)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_rematch_inviting_two_players_and_a_write_notifying_them_both_go_through() -> None:
    """A rematch asked by its highest player invites the two others, outside its roster: the
    trigger took the host's and the first one's locks at the first invitation, the second one's
    at the second, out of order. A write elsewhere holding the second and waiting for the host
    waited for the rematch, which waited for it (``outbox.write_facts`` now takes all first)."""
    if connection.vendor != "postgresql":
        pytest.skip("the notifications' lock order is PostgreSQL's (a trigger)")
    low, middle, host = (User.objects.create_user(name) for name in ("ada", "bob", "cy"))
    game = game_create(player=low, spec=NewGame(max_players=3))
    game_join(player=middle, game_id=game.pk)
    game = game_join(player=host, game_id=game.pk)
    for player in (low, middle):  # two resign: the host wins, the game is over
        game_resign(player=player, game_id=game.pk)

    holding, go = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        elsewhere = pool.submit(write_elsewhere, middle.pk, [host.pk], holding, go)
        assert holding.wait(WAIT)
        asked = pool.submit(_rematch, host, game.pk)
        await_waiting(asked, "the rematch", "advisory")
        assert taken_in_order(), "the rematch holds a player's lock above the one it waits for"
        go.set()  # the write elsewhere now asks for the host
        elsewhere.result(timeout=WAIT)
        asked.result(timeout=WAIT)

    rematch = Game.objects.get(pk=game.pk).rematch
    assert rematch is not None
    invited = Notification.objects.filter(kind="invited", game=rematch)
    assert sorted(invited.values_list("player_id", flat=True)) == [low.pk, middle.pk]
