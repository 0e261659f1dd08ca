"""An arena of 5 players at tables of 2 with a real worker: a player who finishes is seated again
at once with the waiting player nearest in standing; points by placing, doubled after two wins in
a row; after the end (its time moved, not waited for) no game starts and the running ones finish."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Tournament
from service import tournament_steps
from tests.support.players import MakePlayer
from tests.support.table import ok
from tests.support.tournaments import create, join_all, log_of, play_game, start_now, url, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

MIN_GAMES, MAX_GAMES = 6, 40


def doubled_games(entries: list[dict[str, Any]]) -> int:
    """Games a player played after two wins in a row (the streak rule applies)."""
    wins: dict[int, list[bool]] = {}
    count = 0
    for entry in entries:
        if entry["type"] != "table_finished":
            continue
        for place in entry["data"]["places"]:
            history = wins.setdefault(place["player"], [])
            count += len(history) >= 2 and history[-1] and history[-2]
            history.append(entry["data"]["winner"] == place["player"])
    return count


def test_an_arena_of_five(make_player: MakePlayer, worker: Any) -> None:
    host = make_player("host")
    people = [make_player(f"ar{i}") for i in range(5)]
    by_id = {p.id: p for p in people}
    tournament = create(host, format="arena", minutes=1, rounds=None, table_size=2)
    tid = tournament["id"]
    join_all(tid, people)
    start_now(tid)
    rng = random.Random(5)
    played: set[str] = set()
    ended_at = None

    while True:
        detail = ok(host.client.get(url(tid)))
        if detail["status"] == "finished":
            break
        entries = log_of(tid)
        finished = sum(1 for e in entries if e["type"] == "table_finished")
        if ended_at is None and (
            finished >= MAX_GAMES or (finished >= MIN_GAMES and doubled_games(entries))
        ):
            # The arena's time is up: its start moves back past its length (no waiting).
            ended_at = timezone.now()
            Tournament.objects.filter(pk=tid).update(starts_at=ended_at - timedelta(minutes=1))
            tournament_steps.schedule_advance(tid)
        tables = [t for r in detail["rounds"] for t in r["tables"]]
        todo = [t for t in tables if not t["finished"] and t["game"] not in played]
        if not todo:
            wait_for(
                lambda v=detail["version"]: ok(host.client.get(url(tid)))["version"] > v, "a step"
            )
            continue
        for table in todo:
            play_game(table["game"], {p: by_id[p] for p in table["seats"]}, rng)
            played.add(table["game"])

    entries = log_of(tid)
    assert ended_at is not None and doubled_games(entries) > 0, "the streak rule was met"
    # --- the seating: at once, the longest waiting first, with the nearest in standing.
    points: dict[int, float] = dict.fromkeys(by_id, 0.0)
    wins: dict[int, list[bool]] = {p: [] for p in by_id}
    playing: set[int] = set()
    last_done: dict[int, int] = dict.fromkeys(by_id, -1)
    results = 0
    for index, entry in enumerate(entries):
        data = entry["data"]
        if entry["type"] == "table_seated":
            seated, order = data["seats"], data["order"]
            assert not data["bots"] and len(seated) == 2
            assert not set(seated) & playing, "nobody sits at two tables"
            # The order it seated by is the standings as they stood (points, best first).
            assert sorted(order) == sorted(by_id)
            assert [points[p] for p in order] == sorted((points[p] for p in order), reverse=True)
            rank = {p: i for i, p in enumerate(order)}
            waiting = sorted(
                (p for p in by_id if p not in playing), key=lambda p: (last_done[p], rank[p])
            )
            first = waiting[0]  # waited the longest (then the better placed)
            assert first in seated
            partner = next(p for p in seated if p != first)
            nearest = min(waiting[1:], key=lambda p: (abs(rank[p] - rank[first]), rank[p]))
            assert partner == nearest
            playing.update(seated)
        elif entry["type"] == "table_finished":
            results += 1
            seated = [p["player"] for p in data["places"]]
            for place in data["places"]:
                player = place["player"]
                history = wins[player]
                earned = 1.0 if data["winner"] == player else 0.0  # tables of 2: 1 or 0
                on_fire = len(history) >= 2 and history[-1] and history[-2]
                points[player] += 2 * earned if on_fire else earned
                history.append(data["winner"] == player)
                last_done[player] = index
            playing.difference_update(seated)
            # Seated again at once: before the end, while two or more wait, the same step
            # seats a table next (or first records another table that finished meanwhile).
            if entry["at"] < ended_at and len(by_id) - len(playing) >= 2:
                assert entries[index + 1]["type"] in ("table_seated", "table_finished")
    final = ok(host.client.get(url(tid)))
    assert {r["player"]: r["points"] for r in final["standings"]} == points
    assert sum(r["games"] for r in final["standings"]) == 2 * results
    # No game started after the end; the last entry ends the arena.
    seated_after = [
        e for e in Tournament.objects.get(pk=tid).log.filter(type="table_seated", at__gt=ended_at)
    ]
    assert seated_after == []
    assert entries[-1]["type"] == "tournament_finished"
