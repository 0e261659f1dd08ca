"""Pieces of the OpenAPI schema shared by every app: the error body, its responses, the hooks."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema_serializer
from rest_framework import serializers

from unoservice.errors import ERROR_CODES

ERROR_COMPONENT = "ErrorBody"  # not "Error": a generated TypeScript client would shadow its own


@extend_schema_serializer(component_name="FieldCheck")
class FieldCheckSerializer(serializers.Serializer[dict[str, object]]):
    code = serializers.CharField(
        help_text="Machine-readable: required, blank, null, invalid, invalid_choice, max_length, "
        "min_length, max_value, min_value, max_items, min_items, unknown_field, "
        "teams_players, combination, needs (invalid_rules: with the settings in `with`), "
        "password_too_short, password_too_common, password_entirely_numeric, "
        "password_too_similar, … (unoservice/field_checks.py)."
    )
    message = serializers.CharField(help_text="The same, for people (English).")
    limit = serializers.FloatField(
        required=False,
        help_text="The limit the value broke, where the code has one: the most characters "
        "(max_length), items (max_items), the least value (min_value), a password's least "
        "length (password_too_short), ….",
    )


@extend_schema_serializer(component_name=ERROR_COMPONENT)
class ErrorSerializer(serializers.Serializer[dict[str, object]]):
    code = serializers.CharField(help_text="Machine-readable error code.")
    detail = serializers.CharField(help_text="What went wrong, for people.")
    errors = serializers.DictField(  # type: ignore[assignment]  # a field, popped by the metaclass
        required=False, help_text="Per-field messages of a malformed body (400 only)."
    )
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=FieldCheckSerializer()),
        required=False,
        help_text="The same refusals by field path (rules.uno_penalty, ids.2, non_field_errors), "
        "each with its code and limit, for a client to say in its own words (400 only: "
        "invalid, and the settings invalid_rules refused).",
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


def errors_for(*codes: str) -> dict[int, OpenApiResponse]:
    """The error responses of an operation that may answer ``codes``, grouped by their status.

    Statuses and meanings come from the one registry (``unoservice.errors.ERROR_CODES``).
    """
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        by_status.setdefault(ERROR_CODES[code].status, []).append(code)
    return {
        status: error_response(
            " ".join(f"`{code}`: {ERROR_CODES[code].meaning}" for code in group), *group
        )
        for status, group in sorted(by_status.items())
    }


UNAUTHORIZED = errors_for("not_authenticated")


# --- answers any operation may give -------------------------------------------------------------

_RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before a retry."}
}


def _error(code: str, *more: str, retry_after: bool = False) -> dict[str, Any]:
    codes = (code, *more)
    answer: dict[str, Any] = {
        "description": " ".join(f"`{each}`: {ERROR_CODES[each].meaning}" for each in codes),
        "content": {
            "application/json": {
                "schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"},
                "examples": {each: {"value": {"code": each, "detail": "…"}} for each in codes},
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


_COMPONENTS = "#/components/schemas/"
_WRITES = frozenset({"post", "put", "patch", "delete"})


def add_common_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular hook: the error answers that come from the service's shell, not a view.

    Every operation may answer 503 ``unavailable`` (the database does not answer) or
    ``conflict_retry`` (a concurrent write made the database undo the request's), and 406
    ``not_acceptable`` (an Accept without JSON); one with a body, and every write (which reads a
    body to refuse one it does not take: 400 ``invalid``), 413 ``request_too_large``, 411
    ``length_required`` and 415 ``unsupported_media_type``; a throttled one
    (``throttle_scope``), 429 ``throttled``; one that takes an access token, 401
    ``token_expired``.
    """
    scopes = {
        (path, method.lower()): _throttle_scope(getattr(callback, "cls", None), method)
        for path, _, method, callback in generator.endpoints
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.setdefault("503", _error("unavailable", "conflict_retry", retry_after=True))
            responses.setdefault("406", _error("not_acceptable"))
            if "requestBody" in operation or method in _WRITES:
                # A write without a body of its own still reads one to refuse it (400 below).
                responses.setdefault("413", _error("request_too_large"))
                responses.setdefault("411", _error("length_required"))
                responses.setdefault("415", _error("unsupported_media_type"))
            if "requestBody" not in operation and method in _WRITES:
                responses.setdefault("400", _error("invalid"))
            if scopes.get((path, method)):
                responses.setdefault("429", _error("throttled", retry_after=True))
            _add_token_expired(operation, responses)
            if "429" in responses:  # a view's own rate (chat_too_fast) says when, too
                responses["429"].setdefault("headers", _RETRY_AFTER)
    return result


def _add_token_expired(operation: dict[str, Any], responses: dict[str, Any]) -> None:
    """An operation that takes an access token may answer 401 ``token_expired`` too (the
    token's authentication class says it, not the view): said beside its ``not_authenticated``."""
    signed = any("tokenAuth" in scheme for scheme in operation.get("security", []))
    answer = responses.get("401")
    if not signed or not isinstance(answer, dict) or "token_expired" in str(answer):
        return
    said = f"`token_expired`: {ERROR_CODES['token_expired'].meaning}"
    description, codes, listed = str(answer.get("description", "")).partition(" Codes: ")
    answer["description"] = (
        f"{description} {said}{codes}{listed.rstrip('.')}, token_expired."
        if codes
        else f"{description} {said}".strip()
    )
    content = answer.setdefault("content", {}).setdefault("application/json", {})
    content.setdefault("schema", {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"})
    content.setdefault("examples", {})["token_expired"] = {
        "value": {"code": "token_expired", "detail": "…"},
        "summary": "token_expired",
    }


# --- the shapes and the forms clients generate from ------------------------------------------

TOKEN_SCHEME = {
    "type": "apiKey",
    "in": "header",
    "name": "Authorization",
    "description": (
        "The header's value is the word `Token`, a space, then the key from "
        "POST /api/v1/auth/token/ (or registration): `Authorization: Token 9944b0...`. Give a "
        "generated client the whole value (openapi-python-client: "
        '`AuthenticatedClient(token=key, prefix="Token")`).'
    ),
}


def rewrite_refs(node: Any, renames: dict[str, str]) -> Any:
    """``node`` with every reference in ``renames`` renamed: ``$ref`` values and the strings of a
    discriminator's mapping alike."""
    if isinstance(node, dict):
        return {key: rewrite_refs(value, renames) for key, value in node.items()}
    if isinstance(node, list):
        return [rewrite_refs(value, renames) for value in node]
    if isinstance(node, str):
        return renames.get(node, node)
    return node


def add_token_scheme(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular hook: the token scheme every authenticated operation names."""
    result.setdefault("components", {}).setdefault("securitySchemes", {})["tokenAuth"] = (
        TOKEN_SCHEME
    )
    return result


def close_request_bodies(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular hook: every request body's object says ``additionalProperties: false``,
    as the service reads it (``unoservice.api``'s strict serializers and the engine refuse an
    unknown field: 400). The schema did not say so, and a client written from it alone could
    believe an extra field harmless. Objects reached from a body (its ``$ref``s, a ``oneOf``'s
    branches, nested objects) are closed too; response shapes are not (they may grow)."""
    schemas = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def close(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                close(item)
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_COMPONENTS):
            name = ref[len(_COMPONENTS) :]
            if name not in seen and name in schemas:
                seen.add(name)
                close(schemas[name])
            return
        if node.get("type") == "object" and "properties" in node:
            node.setdefault("additionalProperties", False)
        for key in ("properties", "oneOf", "anyOf", "allOf", "items"):
            part = node.get(key)
            close(list(part.values()) if key == "properties" and isinstance(part, dict) else part)

    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {})
            for media in body.values():
                close(media.get("schema"))
    return result
