"""Answers the contract fuzzer (tests/fuzz) once found outside the published schema, kept as
regular tests: each answer is validated against the schema the service publishes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.contract import conforms, published_schema
from tests.support.table import GAMES, Table


@pytest.fixture(scope="module")
def published() -> Any:
    return published_schema()


def test_an_event_page_matches_exactly_one_event_schema(published: Any, table: Table) -> None:
    """The fuzzer found ``GET …/events/?after=0&limit=100`` of a started game failing the
    schema: every event was valid under several schemas of the ``oneOf`` (``type`` was a free
    string), so none validated."""
    draw = table.actor_client().post(table.url("actions"), {"action": "draw"}, format="json")
    assert draw.status_code == 200
    url = table.url("events") + "?after=0&limit=100"

    for client in (table.actor_client(), table.waiter_client(), table.outsider_client()):
        response = client.get(url)
        assert response.status_code == 200
        conforms(published, "/api/v1/games/{game_id}/events/", "GET", response, url)


def test_a_page_past_the_end_is_documented(published: Any, table: Table) -> None:
    """The fuzzer found ``GET /api/v1/games/?page=2147483646&page_size=1`` answering 404, which
    the schema did not document."""
    url = f"{GAMES}?mine=true&my_turn=true&page=2147483646&page_size=1&status=waiting"
    response = table.actor_client().get(url)
    assert response.status_code == 404
    conforms(published, "/api/v1/games/", "GET", response, url)
