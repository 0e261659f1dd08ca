"""A malformed body's refusals field by field, for machines: each with its code and, where it has
one, its limit.

An ``invalid`` error body carries ``errors`` (DRF's messages, ``{field: [message, ...]}``, for
people, in English) and ``fields``, the same refusals as checks a client can put in its own words
without reading the English: ``{"rules.uno_penalty": [{"code": "max_value", "message": "…",
"limit": 4}]}``. A field inside another is named by its path (``rules.uno_penalty``, ``ids.2``);
a refusal of the body as a whole by ``non_field_errors``.

The codes are DRF's and Django's own (``required``, ``blank``, ``null``, ``invalid``,
``invalid_choice``, ``max_length``, ``min_length``, ``max_value``, ``min_value``,
``password_too_short``, ``password_too_common``, ``password_entirely_numeric``,
``password_too_similar``), and the service's: ``max_items`` and ``min_items`` (a list's length,
where DRF says ``max_length`` as for a text), ``unknown_field`` (a field the call does not
take, named by its path like any other). A limit is
read from the field that refused (its ``max_length``, …) or the validator (a password's
minimum length), never from the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.settings import api_settings

# A field's attribute that holds the limit a code refers to.
LIMITS = {
    "max_length": "max_length",
    "min_length": "min_length",
    "max_value": "max_value",
    "min_value": "min_value",
}
# A list's length refused: DRF says max_length/min_length, as for a text's characters.
ITEM_CODES = {"max_length": "max_items", "min_length": "min_items"}
# The params of Django's validators that hold their limit.
DJANGO_LIMITS = ("min_length", "limit_value")
NON_FIELD = api_settings.NON_FIELD_ERRORS_KEY


class Check(ErrorDetail):
    """DRF's message with its code, and what a client needs to say it in its own words."""

    params: dict[str, Any]

    def __new__(cls, string: str, code: str | None = None, **params: Any) -> Check:
        self = super().__new__(cls, string, code)
        self.params = params
        return self


def checks_of(errors: Any, path: str = "") -> dict[str, list[dict[str, Any]]]:
    """``errors`` (a ValidationError's ``detail``: dicts, lists and messages) as ``fields``."""
    found: dict[str, list[dict[str, Any]]] = {}
    if isinstance(errors, Mapping):
        for key, value in errors.items():
            found.update(checks_of(value, f"{path}.{key}" if path else str(key)))
    elif isinstance(errors, list) and all(isinstance(item, str) for item in errors):
        if errors:
            found[path or NON_FIELD] = [_check(message) for message in errors]
    elif isinstance(errors, list):  # a list field's items, by index (a valid item: empty)
        for index, item in enumerate(errors):
            if item:
                found.update(checks_of(item, f"{path}.{index}" if path else str(index)))
    elif isinstance(errors, str):
        found[path or NON_FIELD] = [_check(errors)]
    return found


def _check(message: str) -> dict[str, Any]:
    code = getattr(message, "code", None) or "invalid"
    return {"code": code, "message": str(message), **getattr(message, "params", {})}


def with_limits(serializer: serializers.BaseSerializer[Any], errors: Any) -> Any:
    """``errors`` of ``serializer``'s validation, each message that a limit refused given that
    limit (and a list's length its own code)."""
    if isinstance(errors, Mapping):
        fields = getattr(serializer, "fields", {})
        return {
            key: with_limits(fields[key], value) if key in fields else value
            for key, value in errors.items()
        }
    if isinstance(errors, list):
        child = getattr(serializer, "child", None)
        if all(isinstance(item, str) for item in errors):
            return [_limited(serializer, message) for message in errors]
        if child is not None:  # a list field's items, by index
            return [with_limits(child, item) for item in errors]
    return errors


def _limited(field: Any, message: str) -> str:
    code = getattr(message, "code", None)
    attribute = LIMITS.get(code or "")
    limit = getattr(field, attribute, None) if attribute else None
    if limit is None:
        return message
    listed = isinstance(field, serializers.ListField | serializers.ListSerializer)
    return Check(message, ITEM_CODES.get(code or "", code) if listed else code, limit=limit)


def django_checks(error: DjangoValidationError) -> list[Check]:
    """A Django validator's refusal (a password's, a username's) as checks, with their limits."""
    checks = []
    for item in error.error_list:
        params = item.params or {}
        message = str(item.message % params if params else item.message)
        limit = next((params[p] for p in DJANGO_LIMITS if isinstance(params.get(p), int)), None)
        extra = {"limit": limit} if limit is not None else {}
        checks.append(Check(message, item.code or "invalid", **extra))
    return checks


def unknown_fields(names: list[str], why: str = "") -> dict[str, list[ErrorDetail]]:
    """The refusal of a body's fields that its operation does not take, each by its name."""
    message = f"Unknown field{': ' + why if why else ''}."
    return {name: [ErrorDetail(message, "unknown_field")] for name in names}
