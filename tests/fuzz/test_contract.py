"""Schemathesis against the published OpenAPI schema and a live server on PostgreSQL.

The schema is the document ``GET /api/schema/`` publishes (fetched through Django's test client
when the module loads, and checked against the live server's copy below). Every operation gets
generated requests, valid and invalid (positive and negative modes), sent over HTTP to pytest-
django's live server, signed in with a real token of a player who sits in a real game; each example
meets a fresh world (``conftest.make_world``). No answer may be a 5xx, every answer must be one the
schema documents, of the documented content type and shape, and invalid input must be refused.
"""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any

import schemathesis
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import CoveragePhaseData, CoverageScenario
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.world import World

SCHEMA_URL = "/api/schema/?format=json"


def published_schema() -> dict[str, Any]:
    response = Client().get(SCHEMA_URL)
    assert response.status_code == 200, response.status_code
    return json.loads(response.content)


PUBLISHED = published_schema()
schema = schemathesis.openapi.from_dict(PUBLISHED)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


def _only_an_unknown_header(case: Any) -> bool:
    """The case's one negation is a header the operation does not name: HTTP's recipients ignore
    an unknown header (RFC 9110, 5.1), and so does every operation here. Schemathesis's coverage
    phase counts it as invalid input when the operation names a header of its own (the streams'
    ``Last-Event-ID``)."""
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    return (
        isinstance(data, CoveragePhaseData)
        and data.scenario == CoverageScenario.OBJECT_UNEXPECTED_PROPERTIES
        and data.parameter_location == ParameterLocation.HEADER
    )


def unknown_input_refused(ctx: Any, response: Any, case: Any) -> bool | None:
    """``negative_data_rejection``, but for an unknown header (``_only_an_unknown_header``)."""
    if _only_an_unknown_header(case):
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    unknown_input_refused,
    ignored_auth,
]
# A deeper run than CI's: UNO_FUZZ_EXAMPLES=200 make test (or pytest tests/fuzz).
MAX_EXAMPLES = int(os.environ.get("UNO_FUZZ_EXAMPLES", "25"))
MAX_WAIT = 1  # seconds: a long poll of the event log may hold a request up to 30


def _keep_generated(value: Any) -> bool:
    """One generated path id in five is kept as it is (garbage, or a random uuid)."""
    return sum(str(value).encode()) % 5 == 0


def aim(case: Any, world: World) -> dict[str, str]:
    """Point the generated request at the world's real games and players; the caller's token."""
    operation = case.operation.definition.raw.get("operationId", "")
    caller, game = world.actor, world.active
    if operation == "games_join":
        caller, game = world.newcomer, world.lobby
    elif operation == "games_leave":
        caller, game = world.guest, world.lobby
    elif operation == "games_start":
        caller, game = world.host, world.lobby
    params = case.path_parameters
    if params is not None and "game_id" in params and not _keep_generated(params["game_id"]):
        params["game_id"] = str(game.pk)
    if (
        params is not None
        and "tournament_id" in params
        and not _keep_generated(params["tournament_id"])
    ):
        params["tournament_id"] = str(world.tournament.pk)
        if operation == "tournaments_withdraw":
            caller = world.guest
    if params is not None and "player_id" in params and not _keep_generated(params["player_id"]):
        params["player_id"] = world.other.pk
    query = case.query
    if isinstance(query, dict) and isinstance(query.get("wait"), int) and query["wait"] > MAX_WAIT:
        query["wait"] = MAX_WAIT
    return {"Authorization": f"Token {world.token(caller)}"}


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_the_contract(
    case: Any, live_server: Any, world_factory: Any
) -> None:
    world = world_factory()
    headers = aim(case, world)
    case.call_and_validate(base_url=live_server.url, headers=headers, checks=CHECKS)


def test_the_live_server_publishes_the_schema_under_test(live_server: Any) -> None:
    with urllib.request.urlopen(f"{live_server.url}{SCHEMA_URL}", timeout=10) as answer:
        assert answer.status == 200
        assert json.loads(answer.read()) == PUBLISHED
