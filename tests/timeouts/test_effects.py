"""A write's effects run after its commit, once, and never for a write that did not commit.

The effect observed is the turn deadline's Celery task, on the real Redis broker: each committed
action that moves the turn queues one message; a refused action, a write rolled back with its
transaction, and a write that appends nothing queue none.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction

from games.engine import IllegalMove
from games.models import Game
from service import play
from service.lobby import NewGame, game_create, game_join, game_leave
from service.subscribers import TIME_OUT_TASK
from tests.support.timeouts import started_game

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: effects run on them


def queued(broker: Any) -> list[dict[str, Any]]:
    """The task messages waiting on the broker's default queue (the test runs no worker)."""
    with broker.connection_for_write() as connection:
        client = connection.default_channel.client
        raw = client.lrange(broker.conf.task_default_queue, 0, -1)
    return [json.loads(message)["headers"] for message in raw]


def test_a_committed_action_queues_its_deadline_once(players: Any, broker: Any) -> None:
    game = started_game(players[:2], turn_timeout=60)
    assert [h["task"] for h in queued(broker)] == [TIME_OUT_TASK]  # the start's deadline
    actor = game.current_seat
    assert actor is not None

    played = play.game_act(player=players[actor], game_id=game.pk, action={"action": "draw"})

    tasks = queued(broker)
    assert [h["task"] for h in tasks] == [TIME_OUT_TASK, TIME_OUT_TASK]
    # The task carries the version the game reached, so a stale one does nothing.
    assert tasks[0]["argsrepr"] == repr([str(game.pk), played.game.version])


def test_a_refused_or_rolled_back_write_queues_nothing(players: Any, broker: Any) -> None:
    game = started_game(players[:2], turn_timeout=60)
    before = queued(broker)
    idle = 1 - (game.current_seat or 0)

    with pytest.raises(IllegalMove) as refusal:
        play.game_act(player=players[idle], game_id=game.pk, action={"action": "draw"})
    assert refusal.value.code == "not_your_turn"

    actor = game.current_seat
    assert actor is not None
    with pytest.raises(RuntimeError), transaction.atomic():
        play.game_act(player=players[actor], game_id=game.pk, action={"action": "draw"})
        raise RuntimeError("the caller's transaction fails after the write")

    assert queued(broker) == before
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_write_that_appends_no_event_declares_no_effect(players: Any, broker: Any) -> None:
    seated = started_game(players[:2], turn_timeout=60)
    before = queued(broker)
    waiting = game_create(player=players[2], spec=NewGame())
    game_join(player=players[3], game_id=waiting.pk)
    game_leave(player=players[3], game_id=waiting.pk)
    assert queued(broker) == before
    assert Game.objects.get(pk=seated.pk).status == "active"
