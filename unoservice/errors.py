"""One error path: every error body is ``{"code", "detail"}`` with the contract's status.

Services raise ``DomainError`` (the engine raises ``IllegalMove``, with a code and a detail but no
status: the engine knows nothing of HTTP); ``ERROR_CODES`` gives every code its status, and DRF's
own exceptions are mapped onto the contract's codes. Nothing escapes as a 500 that
a client could have caused. Every error answer is counted by code (``unoservice.metrics``);
refusals of the actions endpoint (the view with ``throttle_scope = "actions"``) also as refused
actions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engine import IllegalMove
from games.engine.errors import ENGINE_CODES
from unoservice import metrics
from unoservice.field_checks import checks_of, django_checks

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Code:
    status: int
    meaning: str


# The status of each of the engine's codes (``games.engine.errors.ENGINE_CODES`` says what they
# mean): 400 when the action or the settings are malformed, 403 for a caller without a seat, 409
# when the game's state does not allow the action, 422 when the rules forbid the move.
ENGINE_STATUSES: dict[str, int] = {
    "invalid": 400,
    "invalid_rules": 400,
    "invalid_deck": 400,
    "invalid_clock": 400,
    "not_a_player": 403,
    "not_your_turn": 409,
    "game_not_active": 409,
    "card_not_in_hand": 422,
    "illegal_card": 422,
    "color_required": 422,
    "target_required": 422,
    "invalid_target": 422,
    "answer_required": 422,
    "already_drawn": 422,
    "nothing_to_pass": 422,
    "must_play": 422,
    "illegal_gift": 422,
    "nothing_to_challenge": 422,
    "nothing_to_choose": 422,
    "cannot_say_uno": 422,
    "nothing_to_catch": 422,
}
if set(ENGINE_STATUSES) != set(ENGINE_CODES):
    raise RuntimeError(
        "every engine code needs one status here: "
        f"{sorted(set(ENGINE_STATUSES) ^ set(ENGINE_CODES))}"
    )

SERVICE_CODES: dict[str, Code] = {
    "invalid_credentials": Code(400, "Wrong username or password, or an inactive account."),
    "not_authenticated": Code(401, "No token, or a bad one."),
    "token_expired": Code(
        401, "The access token has expired: trade the refresh token for a new pair (auth/refresh/)."
    ),
    "token_reused": Code(
        401, "The refresh token was used before: its session is ended; sign in again."
    ),
    "permission_denied": Code(403, "The call needs staff, or the game's host."),
    "not_found": Code(404, "No such game, player or page."),
    "invite_code_unknown": Code(404, "No game has this invite code."),
    "method_not_allowed": Code(405, "The path does not take this method."),
    "not_acceptable": Code(406, "The service answers JSON only."),
    "blocked": Code(
        403, "The caller and a player there keep apart (a block, either way): no seat, no call."
    ),
    "cannot_challenge_yourself": Code(400, "A challenge goes to another player (or a bot)."),
    "challenge_expired": Code(409, "The challenge's time to answer has passed."),
    "challenge_not_open": Code(
        409, "The challenge was accepted, declined or cancelled: nothing to answer."
    ),
    "already_seated": Code(409, "The caller already has a seat in this game."),
    "game_full": Code(409, "Every seat of the game is taken."),
    "game_not_waiting": Code(409, "The game has started or was abandoned."),
    "game_not_finished": Code(
        409, "The call needs a finished game (a rematch; an export, its seed and salt)."
    ),
    "not_enough_players": Code(409, "A game starts with 2 or more seated."),
    "version_conflict": Code(409, "The game has moved past the action's expected_version."),
    "username_taken": Code(409, "The username is taken, ignoring case."),
    "username_reserved": Code(
        400,
        "The username has the form of the names the service gives (guests', deleted accounts', "
        "its bots'), which nobody may choose.",
    ),
    "not_a_guest": Code(409, "Only a guest account can be claimed; this one has a password."),
    "link_invalid": Code(
        400,
        "The mail's link is malformed, expired or used already (or another one replaced it): "
        "ask for a new one.",
    ),
    "already_on_vacation": Code(409, "The caller is on vacation already: end it first."),
    "not_on_vacation": Code(409, "The caller is not on vacation."),
    "vacation_days_used_up": Code(
        409, "The vacation would pass the 14 days a calendar year allows (UTC)."
    ),
    "seq_out_of_range": Code(400, "'at' names no event of the game."),
    "too_many_waiting_games": Code(
        409, "The caller has a seat in as many waiting games as they may (UNO_MAX_WAITING_GAMES)."
    ),
    "length_required": Code(411, "A chunked body, without a Content-Length: send one."),
    "request_too_large": Code(413, "The request body is too large."),
    "url_refused": Code(
        400, "A URL that does not resolve, or resolves to a loopback, private or local address."
    ),
    "limit_reached": Code(409, "The caller has as many webhooks or push subscriptions as allowed."),
    "push_not_configured": Code(404, "The server has no VAPID key: it offers no Web Push."),
    "unsupported_media_type": Code(415, "The body is not JSON."),
    "idempotency_key_reused": Code(422, "The Idempotency-Key was used with another body."),
    "throttled": Code(429, "Too many requests; wait as Retry-After says."),
    "server_error": Code(500, "The server failed; the request may be retried."),
    "unavailable": Code(503, "The database does not answer; retry shortly."),
    "conflict_retry": Code(
        503,
        "A concurrent write met this one (a deadlock or a serialization failure): nothing was "
        "done; send the same request again (Retry-After).",
    ),
    # --- the table chat (service.chat) ---
    "chat_too_fast": Code(
        429, "More than 5 chat messages in 10 s; wait as Retry-After says (retry_after)."
    ),
    "chat_silenced": Code(403, "Staff silenced the caller's chat until 'until'."),
    "chat_not_allowed": Code(
        403, "Spectators chat only in games whose host enabled spectator_chat."
    ),
    # --- end of the table chat ---
    # --- bot accounts (players.services, players.scopes, service.lobby) ---
    "account_has_played": Code(
        409, "A bot account is made before the account's first game: this one has sat in one."
    ),
    "guest_account": Code(
        409, "A guest cannot become a bot account nor change a password (it has none): claim it."
    ),
    "in_tournament_without_bots": Code(
        409,
        "A bot account is not made of an account entered in a tournament (not over) whose host "
        "does not allow bots: withdraw from it first.",
    ),
    "bot_account_scope": Code(
        403,
        "A bot account's token is scoped to play: it changes nothing of the account (a claim, "
        "a Web Push subscription).",
    ),
    "bots_not_welcome": Code(
        403,
        "A bot account takes a public game's seat only where bots are welcome (quick match: "
        "send bots_welcome true).",
    ),
    "not_a_bot_account": Code(400, "No bot account has this username."),
    # --- end of bot accounts ---
    # --- tournaments (service.tournaments) ---
    "invalid_table_size": Code(400, "A tournament's table seats 2 to 10 players."),
    "start_in_past": Code(400, "A tournament's starts_at is in the past (or over a year ahead)."),
    "tournament_started": Code(
        409, "The Swiss or duplicate tournament has started: it takes no new players."
    ),
    "tournament_finished": Code(409, "The tournament is over (an arena: its time is up)."),
    "tournament_already_joined": Code(409, "The caller takes part in the tournament already."),
    "tournament_full": Code(
        409, "The tournament has as many players as it may take (UNO_TOURNAMENT_MAX_PLAYERS)."
    ),
    "tournament_not_joined": Code(
        409, "The caller does not take part in the tournament (or has withdrawn already)."
    ),
    "bots_not_allowed": Code(
        403, "A bot account enters only tournaments whose host allows bots (bots_allowed)."
    ),
    # --- end of tournaments ---
}
# The registry: every code an error body may carry, with its status and meaning; the exception
# handler answers and the schema documents them from here.
ERROR_CODES: dict[str, Code] = {
    **{code: Code(ENGINE_STATUSES[code], meaning) for code, meaning in ENGINE_CODES.items()},
    **SERVICE_CODES,
}


class DomainError(Exception):
    """A refusal by a service: ``code`` (one of ``ERROR_CODES``) for machines, ``detail`` for
    people; the status is the code's."""

    def __init__(
        self,
        code: str,
        detail: str,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = ERROR_CODES[code].status
        self.extra = extra or {}  # fields of the body beside code and detail
        self.headers = headers or {}  # Retry-After, for one

    def __reduce__(self) -> tuple[Any, ...]:
        # A task's failure travels pickled (Celery's result): rebuilt from its arguments.
        return (DomainError, (self.code, self.detail, self.extra, self.headers))


_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "invalid",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": detail, **extra}


def invalid_field(field: str, refused: DjangoValidationError) -> DomainError:
    """400 ``invalid`` for a Django validator's refusal of ``field`` (a password's, a
    username's), in the same shape as a serializer's: ``errors`` and ``fields``."""
    checks = django_checks(refused)
    detail = f"{field}: " + " ".join(checks)
    return DomainError(
        "invalid", detail, {"errors": {field: checks}, "fields": checks_of({field: checks})}
    )


def invalid_value(field: str, message: str) -> DomainError:
    """400 ``invalid`` for ``field``, refused by a service's own check (a value the serializer
    let through), in a serializer's shape: ``errors`` and ``fields``."""
    return DomainError(
        "invalid",
        f"{field}: {message}",
        {"errors": {field: [message]}, "fields": checks_of({field: [message]})},
    )


def _first_message(errors: Any) -> str:
    if isinstance(errors, dict):
        for field, value in errors.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(errors, list) and errors:
        return _first_message(errors[0])
    return str(errors)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _error_response(exc, context)
    if response is not None and isinstance(response.data, dict) and "code" in response.data:
        view = context.get("view")
        metrics.record_error(
            str(response.data["code"]), action=getattr(view, "throttle_scope", None) == "actions"
        )
    return response


# A database error that rolled the transaction back because of another one: PostgreSQL's SQLSTATE
# class 40 ("transaction rollback": 40P01 a deadlock, 40001 a serialization failure), which
# Django raises as an ``OperationalError`` whose ``__cause__`` is psycopg's error; and SQLite's
# "database is locked" (SQLITE_BUSY, SQLITE_LOCKED: their extended codes keep them in the low byte)
# when a writer waited past its timeout for another (``make run``).
ROLLBACK_SQLSTATE_CLASS = "40"
SQLITE_BUSY_CODES = frozenset({5, 6})


def _sqlstate(exc: BaseException) -> str | None:
    for error in (exc, exc.__cause__):
        sqlstate = getattr(error, "sqlstate", None)
        if isinstance(sqlstate, str):
            return sqlstate
    return None


def write_conflict(exc: BaseException) -> bool:
    """Whether ``exc`` (Django's wrapper of a driver's error, or the driver's own) says the
    database undid the transaction because a concurrent write met it: the same request sent
    again can go through, unlike when the database does not answer at all."""
    if (_sqlstate(exc) or "").startswith(ROLLBACK_SQLSTATE_CLASS):
        return True
    return any(
        isinstance(code := getattr(error, "sqlite_errorcode", None), int)
        and (code & 0xFF) in SQLITE_BUSY_CODES
        for error in (exc, exc.__cause__)
    )


# Codes an authentication class may give ``AuthenticationFailed(detail, code=...)`` in place of
# ``not_authenticated`` (players.authentication: an expired access token).
_AUTH_CODES = frozenset({"token_expired", "token_reused"})


def _error_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body = error_body(exc.code, exc.detail, **exc.extra)
        refusal = Response(body, status=exc.status, headers=exc.headers or None)
        if refusal.status_code == status.HTTP_401_UNAUTHORIZED:
            refusal["WWW-Authenticate"] = "Token"  # as DRF's own 401s say it
        return refusal
    if isinstance(exc, IllegalMove):
        fields = {"fields": exc.fields} if exc.fields else {}
        return Response(
            error_body(exc.code, exc.detail, **fields), status=ERROR_CODES[exc.code].status
        )
    if write_conflict(exc):
        # Not an outage: the database rolled the transaction back so that a concurrent one could
        # go on. Nothing of the request was written, and sent again it meets no conflict (or
        # another, answered the same way); a deadlock is worth a look all the same (a lock order
        # to fix), hence the traceback.
        log.warning(
            "a concurrent write rolled the request back (%s): answered conflict_retry",
            f"SQLSTATE {_sqlstate(exc)}" if _sqlstate(exc) else "SQLite: database is locked",
            exc_info=exc,
        )
        body = error_body(
            "conflict_retry",
            "A concurrent write conflicted with this request, so nothing was done; send it again.",
        )
        conflict = Response(body, status=503, headers={"Retry-After": "1"})
        # Said once, above: Django logs every 5xx answer again at ERROR ("Service Unavailable"),
        # as if the service had failed; its log_response skips an answer marked as logged.
        conflict._has_been_logged = True  # type: ignore[attr-defined]
        return conflict
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is not answering (restarting, failing over): nothing was done, and the
        # same request may be sent again (with its Idempotency-Key) once it is back.
        log.warning("the database did not answer", exc_info=exc)
        body = error_body("unavailable", "The service cannot reach its database; retry shortly.")
        return Response(body, status=503, headers={"Retry-After": "1"})
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    code = next((c for kind, c in _CODES.items() if isinstance(exc, kind)), "error")
    if isinstance(exc, exceptions.AuthenticationFailed) and exc.get_codes() in _AUTH_CODES:
        code = str(exc.get_codes())
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        body = error_body(code, _first_message(detail), errors=detail, fields=checks_of(detail))
        response.status_code = status.HTTP_400_BAD_REQUEST
    else:
        body = error_body(code, str(exc.detail))
    response.data = body
    return response


# --- Django's own error pages (no URL matched, a body over the limit, a crash) as error bodies --


def error_page(status: int, code: str, detail: str) -> HttpResponse:
    """An error body outside DRF (Django's own error pages, middleware), counted like the rest."""
    metrics.record_error(code, action=False)
    return JsonResponse(error_body(code, detail), status=status)


def _page(request: HttpRequest, status: int, code: str, detail: str) -> HttpResponse:
    return error_page(status, code, detail)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return _page(request, 413, "request_too_large", "The request body is too large.")
    return _page(request, 400, "invalid", "Bad request.")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 403, "permission_denied", "You may not do this.")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/admin/"):
        return defaults.page_not_found(request, exception)
    return _page(request, 404, "not_found", "Nothing here.")


def server_error(request: HttpRequest) -> HttpResponse:
    return _page(request, 500, "server_error", "The server failed; the request may be retried.")
