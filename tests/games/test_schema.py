"""The OpenAPI schema validates, with no warning, and documents every games endpoint."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS

from games.engine.options import HOUSE_RULES, RULES


def test_spectacular_validates_without_warnings(tmp_path: Path) -> None:
    GENERATOR_STATS.reset()  # warnings of schemas generated earlier in the session
    target = tmp_path / "schema.yml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    document = yaml.safe_load(target.read_text())
    paths = document["paths"]
    for suffix in (
        "",
        "{game_id}/",
        *(
            f"{{game_id}}/{name}/"
            for name in ("join", "leave", "start", "resign", "actions", "events", "replay")
        ),
    ):
        assert f"/api/v1/games/{suffix}" in paths, suffix
    act = paths["/api/v1/games/{game_id}/actions/"]["post"]
    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(act["responses"])
    schemas = document["components"]["schemas"]
    body = act["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert schemas[body]["discriminator"]["propertyName"] == "action"
    assert {"GameStatusEnum", "SeatStatusEnum", "CardEnum"} <= set(schemas)


def test_every_operation_documents_the_shells_errors(tmp_path: Path) -> None:
    """503 (no database) and 406 (no JSON accepted) everywhere, 413 and 415 on a write, 429
    where a caller can be throttled: a client written from the schema alone knows to expect
    them. No operation lists a ``format`` query parameter (the Accept header chooses; the
    streams listed one, and a generated client that sent it was refused)."""
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]

    operations = [(path, method, op) for path, ops in paths.items() for method, op in ops.items()]
    assert len(operations) >= 15
    for path, method, operation in operations:
        responses = operation["responses"]
        assert "503" in responses and "Retry-After" in responses["503"]["headers"], (path, method)
        assert "406" in responses, (path, method)  # an Accept without JSON
        writes = "requestBody" in operation or method in ("post", "put", "patch", "delete")
        assert ("413" in responses) == writes and ("415" in responses) == writes, (path, method)
        if writes and "requestBody" not in operation:  # a body it does not take is refused
            assert "400" in responses, (path, method)
        if any("tokenAuth" in scheme for scheme in operation.get("security", [])):
            # Issue 27: an expired access token, on every operation that takes one.
            expired = responses["401"]["content"]["application/json"]["examples"]
            assert "token_expired" in expired, (path, method)
        names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
        assert "format" not in names, (path, method)
    throttled = {(path, method) for path, method, op in operations if "429" in op["responses"]}
    assert throttled == {
        ("/api/v1/players/", "post"),
        ("/api/v1/players/guest/", "post"),  # issue 25: with the registrations, per address
        ("/api/v1/auth/token/", "post"),
        ("/api/v1/auth/refresh/", "post"),  # issue 27: with the sign-ins, per address
        ("/api/v1/games/{game_id}/actions/", "post"),
        # Issue 11: creating, joining, replays, and long polls past their cap.
        ("/api/v1/games/", "post"),
        ("/api/v1/games/{game_id}/join/", "post"),
        ("/api/v1/games/{game_id}/replay/", "get"),
        ("/api/v1/games/{game_id}/events/", "get"),
        # Issue 16: codes (guessing them) and quick match, with the joins' rate.
        ("/api/v1/games/join-by-code/", "post"),
        ("/api/v1/matchmaking/", "post"),
        # Issue 16: an export (every event of a game) is throttled as a replay is.
        ("/api/v1/games/{game_id}/export/", "get"),
        # Issue 27: the table chat's rate (5 messages in 10 s a player, chat_too_fast).
        ("/api/v1/games/{game_id}/chat/", "post"),
        # A password guessed there is a sign-in guessed: changing it, deleting the account.
        ("/api/v1/players/me/password/", "post"),
        ("/api/v1/players/me/delete/", "post"),
        # A player's whole data as one file reads every part of the account.
        ("/api/v1/players/me/export/", "get"),
        # The account mails: per player (an address's confirmation), per address (a reset); the
        # links' tokens as sign-ins are.
        ("/api/v1/players/me/email/", "post"),
        ("/api/v1/auth/password-reset/", "post"),
        ("/api/v1/auth/email/confirm/", "post"),
        ("/api/v1/auth/password-reset/confirm/", "post"),
        # Challenges and tournaments make games: they count as creating one does.
        ("/api/v1/challenges/", "post"),
        ("/api/v1/tournaments/", "post"),
        # Each report lands in staff's queue (its list is not counted).
        ("/api/v1/reports/", "post"),
    }


def test_the_schema_has_the_forms_clients_generate_from(tmp_path: Path) -> None:
    """Issue 10's list, as a generator reads it: one-value event types, empty data objects,
    nullable parts a strict OpenAPI 3.0 validator accepts, cards typed, one Action union."""
    import jsonschema

    from games.event_schema import GAME_EXAMPLE_VALUE

    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    document = yaml.safe_load(target.read_text())
    schemas = document["components"]["schemas"]
    events = schemas["Event"]["oneOf"]
    # 20, the second set's color_discarded and cards_given, the bank clock's bank_changed, and
    # bot_takeover's seat_taken_over
    assert len(events) == 24
    for item in events:
        event = schemas[item["$ref"].split("/")[-1]]
        assert len(event["properties"]["type"]["enum"]) == 1
    assert schemas["UnoSaidData"] == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    for name in ("round", "you", "last_round"):
        form = schemas["GameView"]["properties"][name]["oneOf"]
        assert form[1] == {"type": "object", "nullable": True, "enum": [None]}
    assert schemas["You"]["properties"]["hand"]["items"] == {
        "$ref": "#/components/schemas/CardEnum"
    }
    assert schemas["You"]["properties"]["legal_actions"]["items"]["$ref"].endswith("/Action")
    assert set(schemas["Rules"]["required"]) == set(schemas["Rules"]["properties"])
    # Both shapes of the house rules are read from engine.options (names, order, bounds, help).
    assert list(schemas["Rules"]["properties"]) == list(HOUSE_RULES)
    request = schemas["RulesRequest"]["properties"]
    assert list(request) == list(HOUSE_RULES)
    for rule in RULES:
        if rule.bound is not None:
            assert (request[rule.name]["minimum"], request[rule.name]["maximum"]) == (
                rule.bound.low,
                rule.bound.high,
            )
        assert request[rule.name].get("description") == rule.help, rule.name
    assert "Error" not in schemas and "ErrorBody" in schemas
    assert not any(name.endswith("ActionRequest") for name in schemas)
    act = document["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
    assert act["requestBody"]["required"] is True
    assert act["tags"] == ["games"]
    game_id = next(p for p in act["parameters"] if p["name"] == "game_id")
    assert game_id["schema"] == {"type": "string", "format": "uuid"}

    # The example is a real view (built by the engine), valid against the derived component.
    resolver_schema = {**schemas["GameView"], "components": document["components"]}
    validator = jsonschema.Draft4Validator(_nullable_to_json_schema(resolver_schema))
    validator.validate(GAME_EXAMPLE_VALUE)


def _nullable_to_json_schema(node):
    """OpenAPI 3.0's ``nullable`` in JSON Schema terms, so jsonschema can check a value."""
    if isinstance(node, dict):
        node = {k: _nullable_to_json_schema(v) for k, v in node.items()}
        if node.pop("nullable", False) and "type" in node:
            node["type"] = [node["type"], "null"]
        node.pop("discriminator", None)
        return node
    if isinstance(node, list):
        return [_nullable_to_json_schema(v) for v in node]
    return node


def test_every_request_body_says_it_takes_no_field_beyond_its_own(tmp_path: Path) -> None:
    """The service refuses an unknown field of any body (400): the schema did not say so, and a
    client written from it alone could take an extra field for harmless."""
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    document = yaml.safe_load(target.read_text())
    schemas = document["components"]["schemas"]
    open_objects: list[str] = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, where)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                walk(schemas[name], name)
                return
            if node.get("type") == "object" and "properties" in node:
                if node.get("additionalProperties") is not False:
                    open_objects.append(where)
                walk(list(node["properties"].values()), where)
            for key in ("oneOf", "anyOf", "allOf", "items"):
                walk(node.get(key), where)

    bodies = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                bodies += 1
                walk(media["schema"], f"{method} {path}")
    assert bodies >= 25
    assert not open_objects, sorted(set(open_objects))
