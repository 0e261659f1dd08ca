"""The OpenAPI schema validates, with no warning, and documents every games endpoint."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS


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
    assert schemas["ActionRequest"]["discriminator"]["propertyName"] == "action"
    assert {"GameStatusEnum", "SeatStatusEnum", "CardEnum"} <= set(schemas)


def test_every_operation_documents_the_shells_errors(tmp_path: Path) -> None:
    """503 (no database) everywhere, 413 with a body, 429 where a caller can be throttled: a
    client written from the schema alone knows to expect them."""
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]

    operations = [(path, method, op) for path, ops in paths.items() for method, op in ops.items()]
    assert len(operations) >= 15
    for path, method, operation in operations:
        responses = operation["responses"]
        assert "503" in responses and "Retry-After" in responses["503"]["headers"], (path, method)
        assert ("413" in responses) == ("requestBody" in operation), (path, method)
    throttled = {(path, method) for path, method, op in operations if "429" in op["responses"]}
    assert throttled == {
        ("/api/v1/players/", "post"),
        ("/api/v1/auth/token/", "post"),
        ("/api/v1/games/{game_id}/actions/", "post"),
        # Issue 11: creating, joining, replays, and long polls past their cap.
        ("/api/v1/games/", "post"),
        ("/api/v1/games/{game_id}/join/", "post"),
        ("/api/v1/games/{game_id}/replay/", "get"),
        ("/api/v1/games/{game_id}/events/", "get"),
    }
