"""Path converters: ``<id:name>``, a UUID in any case.

Django's ``uuid`` takes lowercase only: a challenge's or a session's id in capitals was 404,
where a game's (``<str:…>``, read by ``uuid.UUID``) was found. The schema shows it as a UUID
(``SPECTACULAR_SETTINGS["PATH_CONVERTER_OVERRIDES"]``).
"""

from __future__ import annotations

import uuid

from django.urls import register_converter


class AnyCaseUUID:
    regex = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value: uuid.UUID | str) -> str:
        return str(value).lower()


register_converter(AnyCaseUUID, "id")
