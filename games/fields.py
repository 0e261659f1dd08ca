"""Model fields of the games app."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper

if TYPE_CHECKING:  # django-stubs types fields by the values they set and get
    _TextField = models.TextField[Any, Any]
else:
    _TextField = models.TextField


class JSONTextField(_TextField):
    """JSON kept as plain text, for a value the database never looks into.

    PostgreSQL parses every ``jsonb`` value it stores and prints every one it returns. The engine
    snapshot is rewritten by every action and only ever read whole, by Python: kept as text, an
    action costs PostgreSQL about 50 µs less CPU here (docs/performance.md).
    """

    if TYPE_CHECKING:  # what django-stubs says the attribute holds: any JSON value
        _pyi_private_set_type: Any
        _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as error:
                raise ValidationError(f"Not JSON: {error}") from None
        return value

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def value_to_string(self, obj: models.Model) -> str:
        return str(self.get_prep_value(self.value_from_object(obj)))
