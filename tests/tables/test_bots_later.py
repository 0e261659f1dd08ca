"""Without a broker (``make run``), a bot with a delay plays on this process's own timer, after
the request that led to its turn has answered: a game left to bots (its person resigned, a bot
playing on for them) plays itself out afterwards, move by move, instead of inside that request
(found by fuzzing: a resign took 12 s to answer, a game of ten bots 13 minutes)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings

from games.models import Game, GameStatus
from service import subscribers
from tests.support.players import client_for
from unoservice.celery import app

WAIT = 120.0  # seconds for bots to play a one-round game out, a move every millisecond or so


def _left_to_bots(name: str) -> tuple[str, dict[str, Any]]:
    """A one-round game of ``name`` against a basic bot, which ``name`` resigns from: a bot plays
    on for them. The game's id and the resign's answer."""
    assert app.conf.task_always_eager  # no broker: this process plays the bots
    client = client_for(User.objects.create_user(name, password=None))
    body = {"max_players": 2, "bots": ["basic"], "bot_takeover": True, "target_score": 1}
    made = client.post("/api/v1/games/", body, format="json")
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    resigned = client.post(f"/api/v1/games/{game_id}/resign/")
    assert resigned.status_code == 200, resigned.content
    answer = resigned.json()
    assert answer["status"] == "active"
    assert [seat.get("bot") for seat in answer["seats"]] == ["basic", "basic"]
    return game_id, answer


def _bot_timers() -> list[threading.Timer]:
    return [
        thread
        for thread in threading.enumerate()
        if isinstance(thread, threading.Timer)
        and getattr(thread, "function", None) is subscribers._play_bot_turn_here
    ]


@pytest.mark.django_db(transaction=True)
def test_the_request_answers_before_the_bots_move(settings: Settings) -> None:
    settings.UNO_BOT_DELAY = 3600  # the bots' next move waits an hour: nothing moves meanwhile

    game_id, answer = _left_to_bots("ada")

    try:
        game = Game.objects.get(pk=game_id)
        assert (game.status, game.version) == (GameStatus.ACTIVE, answer["version"])
        assert _bot_timers()  # the next move, waiting on this process's timer
    finally:
        for timer in _bot_timers():
            timer.cancel()


@pytest.mark.django_db(transaction=True)
def test_bots_play_a_game_left_to_them_to_its_end(settings: Settings) -> None:
    settings.UNO_BOT_DELAY = 0.001

    game_id, answer = _left_to_bots("bea")

    deadline = time.monotonic() + WAIT
    while (game := Game.objects.get(pk=game_id)).status != GameStatus.FINISHED:
        assert time.monotonic() < deadline, f"the bots stopped at version {game.version}"
        threading.Event().wait(0.05)
    assert game.version > answer["version"]
