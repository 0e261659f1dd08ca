"""``fill_with_bots_after`` (issue 16): basic bots fill a quick match's free seats after the asked
time and the game starts: by the task on a real Celery worker over the real Redis, by the beat
sweep when the task was lost, and by a read after that time without any worker."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from service.tasks import sweep_overdue_games
from tests.support.players import Player
from tests.support.table import game_url, ok

pytestmark = pytest.mark.django_db(transaction=True)
MATCH = "/api/v1/matchmaking/"
LONG_POLL = 30  # seconds: a bound for a loaded machine, not an expected duration


def _match(player: Player, **body: Any) -> dict[str, Any]:
    return ok(player.client.post(MATCH, body, format="json"))


def _assert_filled(view: dict[str, Any], people: list[Player]) -> None:
    assert view["status"] == "active"
    assert [s["player"]["id"] for s in view["seats"][: len(people)]] == [p.id for p in people]
    assert [s.get("bot") for s in view["seats"][len(people) :]] == ["basic"] * (
        len(view["seats"]) - len(people)
    )


def test_the_worker_fills_the_free_seats_and_starts_the_game(
    players: list[Player], worker: Any
) -> None:
    ada, bob = players[:2]
    # Bob's 3 s, not Ada's: counted from Ada's match, the worker could fill the table before
    # Bob's request came (a slow machine), and Bob would open a game of his own.
    view = _match(ada, players=4, fill_with_bots_after=600)
    assert view["status"] == "waiting"
    assert _match(bob, players=4, fill_with_bots_after=3)["id"] == view["id"]
    # Awaited through the event log's long poll: the start's events wake it.
    page = ok(ada.client.get(game_url(view["id"], "events"), {"after": 0, "wait": LONG_POLL}))
    assert [e["type"] for e in page["events"]][:1] == ["game_started"]
    _assert_filled(ok(ada.client.get(game_url(view["id"]))), [ada, bob])


def test_the_sweep_fills_a_game_whose_task_was_lost(players: list[Player]) -> None:
    ada = players[0]
    view = _match(ada, players=3, fill_with_bots_after=600)  # no broker: no task at all
    game = view["id"]
    assert sweep_overdue_games() == 0 and Game.objects.get(pk=game).status == "waiting"
    Game.objects.filter(pk=game).update(fill_bots_at=timezone.now() - timedelta(seconds=1))
    sweep_overdue_games()
    assert Game.objects.get(pk=game).status == "active"
    _assert_filled(ok(ada.client.get(game_url(game))), [ada])


def test_without_a_worker_a_read_after_the_time_fills_the_game(players: list[Player]) -> None:
    ada, bob = players[:2]
    view = _match(ada, players=2, fill_with_bots_after=0)
    assert view["status"] == "waiting"  # the answer to the request itself seats no bot
    _assert_filled(ok(ada.client.get(game_url(view["id"]))), [ada])
    assert _match(bob, players=2, fill_with_bots_after=0)["id"] != view["id"]


def test_a_later_caller_may_bring_the_bots_forward_but_not_back(players: list[Player]) -> None:
    ada, bob, cy = players[:3]
    game = _match(ada, players=4, fill_with_bots_after=600)["id"]
    at = Game.objects.get(pk=game).fill_bots_at
    _match(bob, players=4, fill_with_bots_after=3600)
    assert Game.objects.get(pk=game).fill_bots_at == at
    _match(cy, players=4, fill_with_bots_after=60)
    later = Game.objects.get(pk=game).fill_bots_at
    assert later is not None and at is not None and later < at
    # Every seat's view (and an onlooker's) says when the bots come: the page counts it down.
    for player in (ada, cy, players[3]):
        shown = ok(player.client.get(game_url(game)))["bots_fill_at"]
        assert datetime.fromisoformat(shown) == later


def test_a_game_the_bots_filled_no_longer_says_when_they_come(players: list[Player]) -> None:
    ada = players[0]
    view = _match(ada, players=2, fill_with_bots_after=0)
    assert "bots_fill_at" in view
    started = ok(ada.client.get(game_url(view["id"])))
    assert started["status"] == "active" and "bots_fill_at" not in started
    assert "bots_fill_at" not in _match(players[1], players=3)  # no bots asked: nothing said
