"""The JSON parser of the API: DRF's, with a size limit and a nesting limit.

DRF reads a request's body straight from the WSGI stream, so Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` never applies to it: without a check here a client could send a
body of any size and the process would read and parse all of it. Bodies over the limit are refused
with 413 ``request_too_large`` after reading at most one byte past the limit (none at all when the
``Content-Length`` header already says too much). JSON nested deeper than Python's recursion limit
(``[[[[…]]]]`` 10,000 deep) is a 400 ``invalid`` rather than a ``RecursionError`` and a 500.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError


def too_large(limit: int) -> Exception:
    # Imported here: DRF imports this module while unoservice.errors is still importing DRF.
    from unoservice.errors import DomainError

    return DomainError("request_too_large", f"The request body is larger than {limit} bytes.")


def declared_length(context: Mapping[str, Any] | None) -> int:
    request = (context or {}).get("request")
    meta = getattr(request, "META", {})
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        return 0


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            if declared_length(parser_context) > limit:
                raise too_large(limit)
            body = stream.read(limit + 1)
            if len(body) > limit:
                raise too_large(limit)
            stream = io.BytesIO(body)
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
