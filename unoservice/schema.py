"""Pieces of the OpenAPI schema shared by every app: the error body and its responses."""

from __future__ import annotations

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
