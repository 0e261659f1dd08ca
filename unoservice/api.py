"""What every HTTP view of every app shares: the views' base class, strict input fields, the body's
validation and the caller's player. One convention across the apps: a view (an ``APIView`` of
this module) validates its input with a serializer of its app's ``serializers.py``
(``validated``, ``query``), calls one command or selector, and answers a body the selectors build;
the output serializers of ``serializers.py`` document that body for the schema."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils.dateparse import parse_datetime
from rest_framework import serializers, views
from rest_framework.request import Request

from unoservice.errors import DomainError
from unoservice.field_checks import checks_of, unknown_fields, with_limits

# The methods whose operations may declare a request body (drf-spectacular documents none for a
# DELETE), and those that change something, whose body is refused when they declare none.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
WRITE_METHODS = BODY_METHODS | {"DELETE"}
NO_BODY = "this call takes no body (send none, or {})"


# The base of every view of the API. (Said in comments, not a docstring: drf-spectacular would
# show a docstring as the description of every operation without one of its own.)
#
# An operation whose schema declares no request body (``extend_schema(request=None)``, and every
# DELETE) refuses one with 400 ``invalid`` before it changes anything: a client that sends
# ``{"seat": 2}`` to ``join/`` or ``{"confirm": false}`` to ``resign/`` believes it was heard, and
# the call would act without it. No body and ``{}`` (what generated clients send) go through. The
# body is read by the API's parser like any other, so one that is not JSON or too large is
# refused as everywhere (415, 413).
class APIView(views.APIView):
    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # After authentication, permissions and throttles: a caller who may not call the
        # operation hears that first, whatever they sent.
        super().initial(request, *args, **kwargs)
        method = str(request.method)
        # A method the view does not have is 405 whatever the body (DRF finds the handler after
        # ``initial``: the body's 400 had come first).
        handled = method.lower() in self.http_method_names and hasattr(self, method.lower())
        if method in WRITE_METHODS and handled and not declares_body(self, method):
            refuse_a_body(request.data)


# Whether each view class's method declares a body: read once from its schema, which depends on
# the class only (the API has no versions).
_declared: dict[tuple[type[views.APIView], str], bool] = {}


def declares_body(view: views.APIView, method: str) -> bool:
    """Whether ``view``'s operation for ``method`` has a request body in the OpenAPI schema, as
    drf-spectacular decides it: the schema and what the view takes are one thing."""
    key = (type(view), method)
    if key not in _declared:
        _declared[key] = _schema_declares_body(view, method)
    return _declared[key]


def _schema_declares_body(view: views.APIView, method: str) -> bool:
    if method not in BODY_METHODS:
        return False
    handler = getattr(view, method.lower(), None)
    # ``extend_schema`` on a view's method leaves its schema class here, as drf-spectacular's
    # generator reads it (``SchemaGenerator.create_view``).
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    if schema_class is None:
        return True  # nothing declared: the schema guesses, so nothing is refused here
    schema = schema_class()
    schema.view = view
    schema.method = method
    return schema.get_request_serializer() is not None


def refuse_a_body(data: Any) -> None:
    """400 ``invalid`` for a parsed body other than nothing or ``{}``, naming its fields."""
    if isinstance(data, Mapping) and not data:
        return
    if not isinstance(data, Mapping):
        raise DomainError("invalid", f"The body must be empty: {NO_BODY}.")
    names = sorted(str(key) for key in data)
    errors = unknown_fields(names, NO_BODY)
    detail = f"Unknown field(s): {', '.join(names)}; {NO_BODY}."
    raise DomainError("invalid", detail, {"errors": errors, "fields": checks_of(errors)})


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is an error rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        # Checked here rather than in validate(): a nested serializer (``rules``) has no
        # ``initial_data``, and its unknown keys must be refused too.
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(unknown_fields(unknown))
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


class StrictDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with its zone, as the contract's times are: DRF's own also takes one
    without and reads it in the server's zone (a client's local time became UTC, silently)."""

    default_error_messages = {
        **serializers.DateTimeField.default_error_messages,
        "naive": "The time must carry its zone (Z or +hh:mm).",
    }

    def to_internal_value(self, value: Any) -> datetime:
        if not isinstance(value, str):
            self.fail("invalid", format="ISO 8601")
        try:
            parsed = parse_datetime(value)
        except ValueError:  # the form of a time, but none (30 February, an offset of 25 hours)
            self.fail("invalid", format="ISO 8601")
        if parsed is not None and parsed.tzinfo is None:
            self.fail("naive")
        return super().to_internal_value(value)


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``data`` (a request's JSON body) checked by ``serializer_class``: 400 ``invalid`` when it
    is not an object or the serializer refuses it."""
    if not isinstance(data, dict):
        raise DomainError("invalid", "The body must be a JSON object.")
    serializer = serializer_class(data=data)
    try:
        serializer.is_valid(raise_exception=True)
    except serializers.ValidationError as refused:
        refused.detail = with_limits(serializer, refused.detail)
        raise
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
