"""Tournaments under test: created and joined through HTTP, their tables played through HTTP
(``POST …/actions/``) by the test for the people, while the tables' filling bots play by
themselves (in-process, or by the real worker)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.engine.bots import choose
from games.models import Game, Tournament, TournamentEntry
from games.tournament_fold import Folded, fold
from service import tournament_steps
from tests.support.players import Player
from tests.support.table import game_url, ok

TOURNAMENTS = "/api/v1/tournaments/"
WAIT = 60.0  # seconds: a bound for a loaded machine, not an expected duration
# Tables of one round of UNO (a target of 1 point ends a game with its first round), long turns:
# nobody times out while the test plays.
QUICK = {"target_score": 1, "turn_timeout": 3600}


def url(tournament_id: str, suffix: str = "") -> str:
    return f"{TOURNAMENTS}{tournament_id}/{suffix + '/' if suffix else ''}"


def body_of(**fields: Any) -> dict[str, Any]:
    """The body of ``POST /api/v1/tournaments/``: a Swiss tournament starting in an hour, with
    ``fields`` instead of its defaults (a field given None is left out)."""
    body: dict[str, Any] = {
        "name": "Test cup",
        "format": "swiss",
        "table_size": 4,
        "rounds": 2,
        "settings": dict(QUICK),
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        **fields,
    }
    return {key: value for key, value in body.items() if value is not None}


def create(host: Player, **fields: Any) -> dict[str, Any]:
    return ok(host.client.post(TOURNAMENTS, body_of(**fields), format="json"), 201)


def join_all(tournament_id: str, players: list[Player]) -> None:
    for player in players:
        ok(player.client.post(url(tournament_id, "join")))


def start_now(tournament_id: str) -> None:
    """As if its start time had come (the stored start moves back; the code reads the clock)."""
    Tournament.objects.filter(pk=tournament_id).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )
    tournament_steps.schedule_advance(tournament_id)


def log_of(tournament_id: str) -> list[dict[str, Any]]:
    return [
        {"seq": e.seq, "type": e.type, "data": e.data, "at": e.at}
        for e in TournamentEntry.objects.filter(tournament_id=tournament_id).order_by("seq")
    ]


def folded(tournament_id: str) -> Folded:
    return fold(log_of(tournament_id))


# ``condition`` is called with no argument; ``...``, not ``[]``: mypy infers no type for a
# ``lambda v=v: ...`` (a loop variable bound) against ``Callable[[], Any]``.
def wait_for(condition: Callable[..., Any], what: str, timeout: float = WAIT) -> Any:
    """Await a condition another thread or process (the worker) makes true."""
    end = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def play_game(game_id: str, people: dict[int, Player], rng: random.Random) -> dict[str, Any]:
    """Play the people's seats of ``game_id`` through HTTP until it ends; its bots play by
    themselves (the test awaits their moves)."""
    watcher = next(iter(people.values()))
    for _ in range(5000):
        view = ok(watcher.client.get(game_url(game_id)))
        if view["status"] != "active":
            return view
        pending = view["round"]["pending"]
        seat = pending["seat"] if pending else view["round"]["current_seat"]
        player_id = view["seats"][seat]["player"]["id"]
        if player_id not in people:  # a bot's turn: it moves by itself
            version = view["version"]
            moved = Game.objects.filter(pk=game_id, version__gt=version)
            wait_for(moved.exists, "a bot's move")
            continue
        actor = people[player_id]
        mine = ok(actor.client.get(game_url(game_id)))
        if mine["version"] != view["version"] or not mine["you"]["legal_actions"]:
            continue
        action = choose(rng, mine, prefer_play=0.95)
        answer = actor.client.post(
            game_url(game_id, "actions"),
            {**action, "expected_version": mine["version"]},
            format="json",
        )
        assert answer.status_code in (200, 409), (answer.status_code, answer.json())
    raise AssertionError("the game does not end")
