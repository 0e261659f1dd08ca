"""What every HTTP view of every app shares: strict input fields, the body's validation and the
caller's player. One convention across the apps: a view validates its input with a serializer of
its app's ``serializers.py`` (``validated``, ``query``), calls one command or selector, and answers
a body the selectors build; the output serializers of ``serializers.py`` document that body for
the schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.settings import api_settings

from unoservice.errors import DomainError


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is an error rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        # Checked here rather than in validate(): a nested serializer (``rules``) has no
        # ``initial_data``, and its unknown keys must be refused too.
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                message = f"Unknown field(s): {', '.join(unknown)}."
                raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]})
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings: DRF's own also turns numbers into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON number only: DRF's own also takes ``"4"`` (a string) and ``true``."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` only: DRF's own also takes ``"yes"``, ``"1"`` and ``1``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``data`` (a request's JSON body) checked by ``serializer_class``: 400 ``invalid`` when it
    is not an object or the serializer refuses it."""
    if not isinstance(data, dict):
        raise DomainError("invalid", "The body must be a JSON object.")
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def query(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's query string checked by ``serializer_class``."""
    return validated(serializer_class, request.query_params.dict())


def caller(request: Request) -> User:
    """The signed-in caller; 401 ``not_authenticated`` for anyone else (a view whose permission
    already refused them never gets here)."""
    user = request.user
    if not isinstance(user, User):
        raise DomainError("not_authenticated", "Sign in with a token.")
    return user
