"""Many threads acting on one game at once, on real PostgreSQL: one writer at a time, no gaps.

Each thread has its own ``APIClient`` and (Django's connections are per thread) its own database
connection, closed when the thread ends. The tests commit for real (``transaction=True``).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest

from games.models import Game
from tests.support.concurrency import THREADS, assert_consistent, run_threads
from tests.support.players import MakePlayer
from tests.support.table import body_of, db_log, db_state, start_table

pytestmark = pytest.mark.django_db(transaction=True)

CLEAN_409 = {"not_your_turn", "version_conflict", "game_not_active"}


def test_threads_acting_at_once_leave_a_consistent_log(make_player: MakePlayer) -> None:
    players = [make_player(f"t{seat}-") for seat in range(4)]
    table = start_table(players, rules={"jump_in": True, "stacking": True}, seed=77)
    url, actions_url = table.url(), table.url("actions")
    # Two threads per seat: they race each other as well as the other seats.
    clients = [players[i % 4].fresh_client() for i in range(THREADS)]

    def work(i: int, barrier: threading.Barrier) -> list[tuple[int, Any]]:
        client, rng, answers = clients[i], random.Random(i), []
        barrier.wait()
        for _ in range(30):
            view = client.get(url)
            assert view.status_code == 200, view.content
            body = view.json()
            if body["status"] != "active":
                break
            legal = body["you"]["legal_actions"]
            action = dict(rng.choice(legal)) if legal else {"action": "draw"}
            if rng.random() < 0.5:
                action["expected_version"] = body["version"]
            response = client.post(actions_url, action, format="json")
            answers.append((response.status_code, body_of(response)))
        return answers

    answers = [answer for result in run_threads(THREADS, work) for answer in result]

    statuses = Counter(status for status, _ in answers)
    assert set(statuses) <= {200, 409, 422}, statuses
    assert statuses[200] >= 10, statuses
    for status, body in answers:
        if status == 409:
            assert body["code"] in CLEAN_409, body
        if status != 200:
            assert set(body) >= {"code", "detail"}, body
    # Each accepted action moved the game on once: the versions it answered are all different.
    versions = [body["version"] for status, body in answers if status == 200]
    assert len(set(versions)) == len(versions)
    state = assert_consistent(table.id)
    assert max(versions) <= Game.objects.get(pk=table.id).version
    assert state.status == "active" or state.winner is not None


def test_only_one_of_many_identical_actions_is_applied(make_player: MakePlayer) -> None:
    players = [make_player(f"s{seat}-") for seat in range(2)]
    table = start_table(players, seed=11)
    actor = db_state(table.id).actor
    version = Game.objects.get(pk=table.id).version
    clients = [players[actor].fresh_client() for _ in range(THREADS)]
    body = {"action": "draw", "expected_version": version}

    def work(i: int, barrier: threading.Barrier) -> tuple[int, Any]:
        barrier.wait()
        response = clients[i].post(table.url("actions"), body, format="json")
        return response.status_code, body_of(response)

    answers = run_threads(THREADS, work)

    assert sorted(status for status, _ in answers) == [200] + [409] * (THREADS - 1)
    assert {b["code"] for status, b in answers if status == 409} == {"version_conflict"}
    assert_consistent(table.id)
    drawn = [e for e in db_log(table.id) if e["type"] == "cards_drawn" and e["seat"] == actor]
    assert len(drawn) == 1


def test_threads_without_expected_version_are_applied_one_at_a_time(
    make_player: MakePlayer,
) -> None:
    players = [make_player(f"u{seat}-") for seat in range(3)]
    table = start_table(players, seed=5)
    clients = [players[i % 3].fresh_client() for i in range(THREADS * 2)]

    def work(i: int, barrier: threading.Barrier) -> list[int]:
        barrier.wait()
        codes = []
        for _ in range(3):
            response = clients[i].post(table.url("actions"), {"action": "draw"}, format="json")
            assert response.status_code in (200, 409, 422), response.content
            codes.append(response.status_code)
        return codes

    codes = [code for result in run_threads(THREADS * 2, work) for code in result]

    assert 200 in codes
    assert_consistent(table.id)
