"""The actions endpoint checks an action's shape (400 ``invalid``); the engine its meaning (422).

The shape is the documented one (the action serializers of the schema): a body that is not an
object, names no known action, carries a field its action does not take, or a value of the wrong
JSON type, choice or range is refused with 400 before the engine is asked, and changes nothing.
A body of the right shape reaches the engine, which refuses what the rules forbid with its code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games.serializers import ACTION_SERIALIZERS, MAX_INT, action_shape_problem
from tests.support.players import Player
from tests.support.table import Table, log_size, refused, start_table

pytestmark = pytest.mark.django_db

MALFORMED: list[Any] = [
    [],
    "draw",
    {"card": "red-3"},
    {"action": "dance"},
    {"action": 3},
    {"action": "play", "card": "red-10"},
    {"action": "play", "card": "red-3", "uno": "yes"},
    {"action": "draw", "expected_version": "3"},
    {"action": "draw", "expected_version": True},
    {"action": "draw", "expected_version": -1},
    {"action": "draw", "expected_version": MAX_INT + 1},
    {"action": "catch"},
    {"action": "catch", "target": 10},
    {"action": "catch", "target": "1"},
    {"action": "color", "color": "pink"},
    {"action": "color"},
    {"action": "play", "cards": []},
    {"action": "play", "cards": "red-3"},
    {"action": "play", "cards": ["red-3", "red-10"]},
    {"action": "draw", "card": "red-3"},
    {"action": "play", "card": "red-3", "Card": "red-3"},
]


@pytest.mark.parametrize("body", MALFORMED, ids=[repr(b)[:40] for b in MALFORMED])
def test_a_malformed_action_is_400_and_changes_nothing(players: list[Player], body: Any) -> None:
    table = start_table(players[:2], seed=11)
    before = log_size(table.id)
    for seat in (0, 1):
        response = table.client(seat).post(table.url("actions"), body, format="json")
        refused(response, 400, "invalid")
    assert log_size(table.id) == before


def test_well_formed_bodies_pass_the_shape_check() -> None:
    for body in (
        {"action": "play", "card": "red-3"},
        {"action": "play", "card": "wild", "color": "blue", "uno": True, "expected_version": 0},
        {"action": "play", "cards": ["red-3", "blue-3"]},
        {"action": "play", "card": "red-7", "target": 9},
        {"action": "draw", "expected_version": MAX_INT},
        {"action": "catch", "target": 0},
        {"action": "color", "color": "green"},
        *({"action": name} for name in ACTION_SERIALIZERS if name not in ("catch", "color")),
    ):
        assert action_shape_problem(body) is None, body


def test_the_shape_check_refuses_what_the_documented_serializers_refuse() -> None:
    # Looked up by whatever a malformed body holds as its action, not only by a name.
    by_action: Mapping[Any, type[Any]] = ACTION_SERIALIZERS
    for body in MALFORMED:
        problem = action_shape_problem(body)
        assert problem, body
        serializer = by_action.get(body.get("action")) if isinstance(body, dict) else None
        if isinstance(serializer, type):
            assert not serializer(data=body).is_valid(), body


def test_a_well_formed_move_the_rules_forbid_reaches_the_engine(players: list[Player]) -> None:
    table: Table = start_table(players[:2], seed=11)
    actor = table.actor()
    hand = set(table.view(actor)["you"]["hand"])
    missing = next(c for c in ("red-1", "blue-2", "green-3", "yellow-4") if c not in hand)
    before = log_size(table.id)
    response = table.client(actor).post(
        table.url("actions"), {"action": "play", "card": missing}, format="json"
    )
    refused(response, 422, "card_not_in_hand")
    refused(
        table.client(actor).post(table.url("actions"), {"action": "pass"}, format="json"),
        422,
        "nothing_to_pass",
    )
    refused(
        table.client(1 - actor).post(table.url("actions"), {"action": "draw"}, format="json"),
        409,
        "not_your_turn",
    )
    assert log_size(table.id) == before
