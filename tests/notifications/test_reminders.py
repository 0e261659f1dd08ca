"""``deadline_soon``: one reminder a turn once 80% of its time has passed, by the turn's task,
the sweep or the lazy path (a player reading the inbox), whichever comes first."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game
from notifications.delivery import REMIND_TASK
from notifications.models import Kind, Notification, Watching
from service import play, reminders
from tests.support.notifications import WAIT, start_workers, wait_for
from tests.support.players import client_for
from tests.support.timeouts import pass_time, started_game

pytestmark = pytest.mark.django_db


def near_its_deadline(game: Game, left: float) -> Game:
    """As if the turn had run until ``left`` seconds before its deadline."""
    game.refresh_from_db()
    assert game.turn_deadline is not None
    pass_time(game, (game.turn_deadline - timezone.now()).total_seconds() - left)
    return game


def reminders_of(game: Game) -> list[Notification]:
    return list(Notification.objects.filter(kind=Kind.DEADLINE_SOON, game=game))


def test_a_turn_is_reminded_once_when_80_percent_of_its_time_has_passed(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=100)
    actor = game.current_seat
    assert actor is not None
    near_its_deadline(game, 25)  # 75% passed
    assert reminders.remind(game.pk, game.version) is False

    near_its_deadline(game, 15)  # 85% passed
    assert reminders.remind(game.pk, game.version - 1) is False  # a stale task
    assert reminders.remind(game.pk, game.version) is True
    assert reminders.remind(game.pk, game.version) is False  # a repeated one

    (reminder,) = reminders_of(game)
    assert reminder.player == users[actor]
    assert reminder.data == {
        "seat": actor,
        "version": game.version,
        "deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "others": [{"id": users[1 - actor].pk, "username": users[1 - actor].username}],
    }


def test_no_reminder_once_the_deadline_has_passed(users: list[User]) -> None:
    game = near_its_deadline(started_game(users[:2], turn_timeout=100), -1)
    assert reminders.remind(game.pk) is False
    assert reminders.remind_due() == 0
    assert reminders_of(game) == []


def test_the_sweep_reminds_every_turn_due(users: list[User]) -> None:
    due = [near_its_deadline(started_game(users[:2], turn_timeout=1000), 100) for _ in range(2)]
    not_yet = near_its_deadline(started_game(users[2:], turn_timeout=1000), 300)

    assert reminders.remind_due() == 2
    assert reminders.remind_due() == 0
    assert [len(reminders_of(g)) for g in due] == [1, 1]
    assert reminders_of(not_yet) == []


def test_the_next_turn_gets_its_own_reminder(users: list[User]) -> None:
    game = near_its_deadline(started_game(users[:2], turn_timeout=100), 10)
    assert reminders.remind_due() == 1
    actor = game.current_seat
    assert actor is not None
    while Game.objects.get(pk=game.pk).current_seat == actor:
        played = play.game_act(player=users[actor], game_id=game.pk, action={"action": "draw"})
        if played.game.current_seat == actor:
            play.game_act(player=users[actor], game_id=game.pk, action={"action": "pass"})
    near_its_deadline(game, 10)
    assert reminders.remind_due() == 1
    assert sorted(n.player_id for n in reminders_of(game)) == sorted(u.pk for u in users[:2])


def test_reading_the_inbox_catches_up_the_callers_reminders(users: list[User]) -> None:
    """No worker at all: the player who must act sees the reminder when they look."""
    game = near_its_deadline(started_game(users[:2], turn_timeout=100), 10)
    actor = game.current_seat
    assert actor is not None

    idle = client_for(users[1 - actor]).get("/api/v1/notifications/").json()
    assert "deadline_soon" not in [n["kind"] for n in idle["results"]]
    for _ in range(2):
        seen = client_for(users[actor]).get("/api/v1/notifications/").json()
        assert [n["kind"] for n in seen["results"]].count("deadline_soon") == 1
    assert seen["results"][0]["kind"] == "deadline_soon"


@pytest.mark.django_db(transaction=True)
def test_a_turn_change_queues_its_reminder_for_80_percent(users: list[User], broker: Any) -> None:
    game = started_game(users[:2], turn_timeout=100)
    with broker.connection_for_write() as connection:
        raw = connection.default_channel.client.lrange("notifications", 0, -1)
    headers = [json.loads(message)["headers"] for message in raw]
    (remind,) = [h for h in headers if h["task"] == REMIND_TASK]
    assert remind["argsrepr"] == repr([str(game.pk), game.version])
    assert game.turn_deadline is not None
    due = game.turn_deadline - timedelta(seconds=20)
    assert abs(datetime.fromisoformat(remind["eta"]) - due) < timedelta(seconds=1)


@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_the_reminder_once_however_often_the_task_comes(
    users: list[User], worker_env: dict[str, str], tmp_path: Path
) -> None:
    game = started_game(users[:2], turn_timeout=100)
    from service.tasks import remind

    workers = start_workers(2, worker_env, tmp_path)
    try:
        # Only once the workers answer: their start (seconds on a loaded machine) must not eat
        # the 10 s the reminder is due in, or no task finds it due.
        near_its_deadline(game, 10)
        for _ in range(4):
            remind.delay(str(game.pk), game.version)
        wait_for(lambda: reminders_of(game), what="the reminder")
        wait_for(workers.idle, WAIT, "every task to have run")
    finally:
        workers.stop()
    assert len(reminders_of(game)) == 1


def _watch(game: Game, user: User) -> Watching:
    """The row an open stream of ``game`` writes for ``user`` (``service.attention``; the stream
    itself is tested through the real server in ``tests/streams/test_attention.py``)."""
    until = timezone.now() + timedelta(minutes=1)
    return Watching.objects.create(player=user, game=game, process="test", until=until)


def test_a_watched_live_turn_is_not_reminded_until_the_player_leaves(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=100)
    actor = game.current_seat
    assert actor is not None
    watch = _watch(game, users[actor])
    near_its_deadline(game, 15)

    reminders.remind(game.pk, game.version)
    assert reminders_of(game) == []

    watch.delete()
    reminders.remind(game.pk, game.version)
    assert [r.player for r in reminders_of(game)] == [users[actor]]


def test_a_watched_correspondence_turn_is_reminded(users: list[User]) -> None:
    game = started_game(users[:2], turn_timeout=7200)
    actor = game.current_seat
    assert actor is not None
    _watch(game, users[actor])
    near_its_deadline(game, 600)

    reminders.remind(game.pk, game.version)
    assert [r.player for r in reminders_of(game)] == [users[actor]]
