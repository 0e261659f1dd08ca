"""The tables operations and fields are in the OpenAPI schema, and real answers fit it."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.support.players import Player
from tests.support.table import create_game, game_url, ok


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_operations_and_their_errors(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    expected = {
        ("/api/v1/games/join-by-code/", "post"): {"200", "400", "404", "409"},
        ("/api/v1/matchmaking/", "post"): {"200", "400", "409"},
        ("/api/v1/games/{game_id}/rematch/", "post"): {"200", "403", "404", "409"},
        ("/api/v1/leaderboard/", "get"): {"200", "400", "401"},
    }
    for (path, method), statuses in expected.items():
        assert statuses <= set(paths[path][method]["responses"]), path
    codes = str(paths["/api/v1/games/join-by-code/"]["post"]["responses"]["404"])
    assert "invite_code_unknown" in codes
    assert "game_not_finished" in str(paths["/api/v1/games/{game_id}/rematch/"]["post"])
    body = paths["/api/v1/matchmaking/"]["post"]["requestBody"]["content"]["application/json"]
    component = body["schema"]["$ref"].rsplit("/", 1)[-1]
    fields = schema["components"]["schemas"][component]["properties"]
    assert {"players", "rules", "fill_with_bots_after"} <= set(fields)


def test_the_fields(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    assert {"invite_code", "rematch"} <= set(components["GameView"]["properties"])
    assert "private" in components["Settings"]["properties"]
    assert "private" in components["GameCreateRequest"]["properties"]
    for profile in ("PublicProfile", "OwnProfile", "LeaderboardEntry"):
        assert {"rating", "games_played", "games_won"} <= set(components[profile]["properties"])
    assert set(components["Rating"]["properties"]) == {"mu", "sigma", "ordinal"}


@pytest.mark.django_db
def test_a_private_game_view_has_only_documented_fields(
    schema: dict[str, Any], players: list[Player]
) -> None:
    ada = players[0]
    view = create_game(ada, max_players=2, private=True)
    documented = schema["components"]["schemas"]["GameView"]["properties"]
    assert set(view) <= set(documented)
    assert set(view["settings"]) <= set(schema["components"]["schemas"]["Settings"]["properties"])
    assert ok(ada.client.get(game_url(view["id"])))["invite_code"] == view["invite_code"]
