"""Pieces of the OpenAPI schema shared by every app: the error body and its responses."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer[dict[str, object]]):
    code = serializers.CharField(help_text="Machine-readable error code.")
    detail = serializers.CharField(help_text="What went wrong, for people.")
    errors = serializers.DictField(  # type: ignore[assignment]  # a field, popped by the metaclass
        required=False, help_text="Per-field messages of a malformed body (400 only)."
    )


def error_response(description: str, *codes: str) -> OpenApiResponse:
    """An error response whose examples show each of ``codes``."""
    return OpenApiResponse(
        response=ErrorSerializer,
        description=f"{description} Codes: {', '.join(codes)}." if codes else description,
        examples=[
            OpenApiExample(code, value={"code": code, "detail": "…"}, response_only=True)
            for code in codes
        ],
    )


UNAUTHORIZED = {401: error_response("No or bad token.", "not_authenticated")}


# --- answers any operation may give -------------------------------------------------------------

_RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before a retry."}
}


def _error(description: str, code: str, retry_after: bool = False) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": f"{description} Code: {code}.",
        "content": {
            "application/json": {
                "schema": {"$ref": "#/components/schemas/Error"},
                "examples": {code: {"value": {"code": code, "detail": "…"}}},
            }
        },
    }
    if retry_after:
        answer["headers"] = _RETRY_AFTER
    return answer


def _throttle_scope(view: Any, method: str) -> str | None:
    methods = getattr(view, "throttle_methods", None)
    if methods is not None and method.upper() not in methods:
        return None
    return getattr(view, "throttle_scope", None)


def add_common_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular hook: the error answers that come from the service's shell, not a view.

    Every operation may answer 503 ``unavailable`` (the database does not answer); one with a
    body, 413 ``request_too_large`` and 411 ``length_required``; a throttled one
    (``throttle_scope``), 429 ``throttled``.
    """
    scopes = {
        (path, method.lower()): _throttle_scope(getattr(callback, "cls", None), method)
        for path, _, method, callback in generator.endpoints
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "503",
                _error("The database does not answer; retry shortly.", "unavailable", True),
            )
            if "requestBody" in operation:
                responses.setdefault(
                    "413", _error("The request body is too large.", "request_too_large")
                )
                responses.setdefault(
                    "411",
                    _error("A chunked body, without a Content-Length.", "length_required"),
                )
            if scopes.get((path, method)):
                responses.setdefault("429", _error("Too many requests.", "throttled", True))
    return result
