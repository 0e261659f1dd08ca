"""Idempotent retries: the same key and body answer the first answer again and act once."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from games.models import IdempotentRequest
from tests.support.concurrency import THREADS, assert_consistent, run_threads
from tests.support.players import MakePlayer, Player
from tests.support.table import Table, body_of, deck_table, log_size, ok, refused, start_table

HANDS = [
    ["red-3", "red-4", "blue-5", "wild", "green-7", "yellow-1", "red-skip"],
    ["blue-3", "green-2", "yellow-4", "blue-9", "green-9", "yellow-9", "blue-1"],
]


@pytest.fixture
def table(staff: Player, players: list[Player]) -> Table:
    return deck_table(staff, players[1:2], HANDS, "red-5")


@pytest.mark.django_db
def test_a_retry_returns_the_first_answer_and_acts_once(table: Table) -> None:
    key = {"HTTP_IDEMPOTENCY_KEY": "3f6c-play-red-3"}
    play = {"action": "play", "card": "red-3", "expected_version": log_size(table.id)[0]}

    first = table.post(0, play, **key)
    after_first = log_size(table.id)
    second = table.post(0, play, **key)

    assert first.status_code == second.status_code == 200
    assert body_of(second) == body_of(first)
    assert log_size(table.id) == after_first
    assert table.hand(0).count("red-3") == 0
    # Still the first answer once the game has moved on.
    table.act(1, "draw")
    third = table.post(0, play, **key)
    assert third.status_code == 200 and body_of(third) == body_of(first)
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused(table: Table) -> None:
    key = {"HTTP_IDEMPOTENCY_KEY": "k1"}
    ok(table.post(0, {"action": "play", "card": "red-3"}, **key))
    before = log_size(table.id)

    for body in (
        {"action": "play", "card": "red-4"},
        {"action": "play", "card": "red-3", "uno": False},
        {"action": "draw"},
    ):
        refused(table.post(0, body, **key), 422, "idempotency_key_reused")

    assert log_size(table.id) == before


@pytest.mark.django_db
def test_keys_belong_to_one_player_and_one_game(
    table: Table, players: list[Player], staff: Player
) -> None:
    key = {"HTTP_IDEMPOTENCY_KEY": "shared"}
    ok(table.post(0, {"action": "play", "card": "red-3"}, **key))
    # Another player may use the same key for their own action.
    ok(table.post(1, {"action": "draw"}, **key))
    # And the same player in another game.
    other = deck_table(staff, players[2:3], HANDS, "red-5")
    ok(other.post(0, {"action": "play", "card": "red-4"}, **key))
    assert IdempotentRequest.objects.count() == 3


@pytest.mark.django_db
def test_a_refused_action_is_not_remembered(table: Table) -> None:
    key = {"HTTP_IDEMPOTENCY_KEY": "try"}
    refused(table.post(1, {"action": "draw"}, **key), 409, "not_your_turn")
    ok(table.post(0, {"action": "play", "card": "red-3"}))

    # Now it is seat 1's turn: the same key and body are tried again, and act.
    body = ok(table.post(1, {"action": "draw"}, **key))

    assert body["you"]["seat"] == 1
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "x" * 256])
def test_a_bad_key_is_invalid(table: Table, key: str) -> None:
    before = log_size(table.id)

    refused(table.post(0, {"action": "draw"}, HTTP_IDEMPOTENCY_KEY=key), 400, "invalid")

    assert log_size(table.id) == before


@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_act_once(make_player: MakePlayer) -> None:
    players = [make_player(f"i{seat}-") for seat in range(2)]
    table = start_table(players, seed=3)
    actor = table.actor()
    before = log_size(table.id)
    clients = [players[actor].fresh_client() for _ in range(THREADS)]

    def work(i: int, barrier: threading.Barrier) -> tuple[int, Any]:
        barrier.wait()
        response = clients[i].post(
            table.url("actions"), {"action": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="once"
        )
        return response.status_code, body_of(response)

    answers = run_threads(THREADS, work)

    assert {status for status, _ in answers} == {200}
    assert all(body == answers[0][1] for _, body in answers)
    drawn = log_size(table.id)[0] - before[0]
    assert drawn >= 2 and answers[0][1]["version"] == before[0] + drawn
    assert IdempotentRequest.objects.count() == 1
    assert_consistent(table.id)
