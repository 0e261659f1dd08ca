"""Every error code the code base can answer is in the one registry, with its status."""

from __future__ import annotations

import ast
from pathlib import Path

from games.engine import IllegalMove
from games.engine.errors import ENGINE_CODES
from unoservice.errors import ENGINE_STATUSES, ERROR_CODES, SERVICE_CODES, Code

ROOT = Path(__file__).resolve().parent.parent
# Calls whose first argument is an error code (``ended_frame``: a stream's last message says one).
RAISERS = {"DomainError", "IllegalMove", "_illegal", "error_body", "_error", "ended_frame"}


def codes_in_source() -> dict[str, str]:
    found: dict[str, str] = {}
    for package in ("games", "players", "unoservice", "streams", "service"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                first = node.args[0]
                if name in RAISERS and isinstance(first, ast.Constant):
                    found[str(first.value)] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_every_raised_code_is_registered() -> None:
    found = codes_in_source()
    assert len(found) > 20  # the scan sees the code base
    unknown = {code: where for code, where in found.items() if code not in ERROR_CODES}
    assert not unknown


def test_every_registered_code_has_an_http_error_status() -> None:
    for code, entry in ERROR_CODES.items():
        assert 400 <= entry.status <= 599 and entry.meaning, code


def test_every_engine_code_has_a_status_in_the_registry() -> None:
    # The engine names its codes and their meanings, never a status: the service's registry gives
    # each its status, and only the engine's meaning.
    assert set(ENGINE_STATUSES) == set(ENGINE_CODES)
    for code, meaning in ENGINE_CODES.items():
        assert code in ERROR_CODES, code
        assert ERROR_CODES[code] == Code(ENGINE_STATUSES[code], meaning), code
        assert code not in SERVICE_CODES, code
    assert not hasattr(IllegalMove("invalid", "x"), "status")
