"""The JSON parser of the API: DRF's, with a size limit and a nesting limit.

DRF reads a request's body straight from the WSGI stream, so Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` never applies to it: without a check here a client could send a
body of any size and the process would read and parse all of it. Bodies over the limit are refused
with 413 ``request_too_large`` after reading at most one byte past the limit (none at all when the
``Content-Length`` header already says too much). JSON nested deeper than Python's recursion limit
(``[[[[…]]]]`` 10,000 deep) is a 400 ``invalid`` rather than a ``RecursionError`` and a 500.
A string with a lone surrogate (``"\\ud800"``: valid JSON syntax, but no character, so no UTF-8
can carry it back in an answer, a log line or the database) is a 400 ``invalid`` too.
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


def declared_length(meta: Mapping[str, Any]) -> int:
    """The request's ``Content-Length`` (0 when it has none, or not a number)."""
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
            request = (parser_context or {}).get("request")
            if declared_length(getattr(request, "META", {})) > limit:
                raise too_large(limit)
            body = stream.read(limit + 1)
            if len(body) > limit:
                raise too_large(limit)
        else:
            body = stream.read()
        try:
            data = super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        if b"\\u" in body:  # only an escape makes a surrogate: raw UTF-8 cannot hold one
            refuse_lone_surrogates(data)
        return data


def refuse_lone_surrogates(data: Any) -> None:
    """``ParseError`` when a string of ``data`` (a key or a value, at any depth) holds a lone
    surrogate. Walked with a list rather than recursion: the parser took nesting up to Python's
    recursion limit."""
    waiting = [data]
    while waiting:
        item = waiting.pop()
        if isinstance(item, dict):
            waiting.extend(item)
            waiting.extend(item.values())
        elif isinstance(item, list):
            waiting.extend(item)
        elif isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                raise ParseError(
                    "JSON parse error - a string holds a lone surrogate (\\ud800-\\udfff), "
                    "which is no character."
                ) from None
