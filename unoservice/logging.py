"""Structured logs: one JSON object a line in production, with the id of the request behind it.

``RequestIdMiddleware`` puts the request id in ``request_id_var`` for the length of a request;
``RequestIdFilter`` copies it onto every record; ``JsonFormatter`` writes a record as one JSON
object (``time``, ``level``, ``logger``, ``message``, ``request_id`` and the record's ``extra``
fields); ``TextFormatter`` writes the same as a readable line for development.

Nothing here logs a body or a header. As a second line of defence, ``extra`` fields whose names
say they hold a secret or cards (password, token, hand, cards…) are written as ``"[redacted]"``,
and values that are not plain scalars (a request object, a list of events) are left out.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid
from datetime import UTC, datetime
from typing import Any

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None
)

# An incoming X-Request-ID is kept only if it looks like an id (no spaces, quotes or newlines).
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
_BLANK_RECORD = logging.LogRecord("", logging.INFO, "", 0, "", None, None)
_STANDARD_ATTRS = frozenset(vars(_BLANK_RECORD)) | {"message", "asctime", "request_id"}
_SECRET_NAMES = re.compile(
    r"pass(word)?|token|secret|authorization|cookie|session|api_?key|credential"
    r"|hand|cards?$|deck|draw_pile",
    re.IGNORECASE,
)
REDACTED = "[redacted]"


def new_request_id() -> str:
    return uuid.uuid4().hex


def clean_request_id(raw: str | None) -> str:
    """The client's X-Request-ID if it is a plausible id, else a new one."""
    if raw and _REQUEST_ID.match(raw):
        return raw
    return new_request_id()


class RequestIdFilter(logging.Filter):
    """Stamps each record with the id of the request it belongs to (None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            # Django logs a response's 4xx/5xx after the middleware has returned; its records
            # carry the request, which carries the id.
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", None) or request_id_var.get()
        return True


def _scalar(value: Any) -> Any:
    """A JSON-ready scalar, or ``...`` (Ellipsis) for a value to leave out."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, uuid.UUID | datetime):
        return str(value)
    return ...


def record_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The ``extra`` fields of a record, redacted and reduced to scalars."""
    fields: dict[str, Any] = {}
    for name, value in vars(record).items():
        if name in _STANDARD_ATTRS or name.startswith("_"):
            continue
        if _SECRET_NAMES.search(name):
            fields[name] = REDACTED
            continue
        scalar = _scalar(value)
        if scalar is not ...:
            fields[name] = scalar
    return fields


def _time(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        payload.update(record_fields(record))
        if record.exc_info:
            payload["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            payload["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(payload, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger [request id] message key=value…``, for people at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{k}={v}" for k, v in record_fields(record).items())
        line = (
            f"{_time(record)} {record.levelname:<7} {record.name} "
            f"[{getattr(record, 'request_id', None) or '-'}] {record.getMessage()}"
        )
        if fields:
            line = f"{line} {fields}"
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


def logging_config(log_format: str, level: str, loggers: dict[str, Any]) -> dict[str, Any]:
    """The ``dictConfig`` every process uses (Django, the Celery worker, gunicorn's master).

    One handler on stderr, in ``log_format`` (``json`` or ``text``), every line with its request
    id; ``loggers`` adds or quiets the process's own loggers.
    """
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "unoservice.logging.RequestIdFilter"}},
        "formatters": {
            "json": {"()": "unoservice.logging.JsonFormatter"},
            "text": {"()": "unoservice.logging.TextFormatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["request_id"],
                "formatter": log_format,
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": loggers,
    }
