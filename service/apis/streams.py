"""The streams' HTTP API: the game stream, the player stream and stream tickets.

A stream view is an ordinary DRF view (authentication, the query's shape, 404s, the error body)
that answers with a ``StreamingHttpResponse`` over an async iterator. Under the ASGI server the
checks run once in a thread and the stream then lives on the event loop, holding no thread. Under
a WSGI server (the test suite's live server, a bare ``gunicorn_conf``) the stream sends what is
there and ends; the client's reconnection (``retry``, ``Last-Event-ID``) picks up from there.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.mediatypes import media_type_matches, order_by_precedence

from games import selectors
from games.engine import limits
from games.models import Challenge, Game
from players.authentication import AccessTokenAuthentication
from players.sessions import old_key_signs_in, session_open
from service import attention, challenges, chat, clock, player_stream
from service.apis.challenges import challenge_view
from service.player_stream import NOTIFICATIONS
from streams import sse
from streams.authentication import StreamTicketAuthentication
from streams.frames import STREAM_ENDED, ended_frame
from streams.serializers import (
    GameStreamQuerySerializer,
    PlayerStreamQuerySerializer,
    StreamTicketSerializer,
)
from streams.tickets import ticket_issue
from unoservice import api
from unoservice.api import APIView
from unoservice.asgi_bridge import ASYNC_STREAMS
from unoservice.errors import DomainError
from unoservice.schema import errors_for

TAGS = ["streams"]
EVENT_STREAM = "text/event-stream"
JSON = "application/json"
LAST_EVENT_ID = "Last-Event-ID"
# The header first: a browser that reconnects repeats the URL (with its old ``after``) and sends
# the last id it saw, which is where the stream must go on from.
STREAM_AUTHENTICATION = [
    AccessTokenAuthentication,
    SessionAuthentication,
    StreamTicketAuthentication,
]


class EventStreamRenderer(BaseRenderer):
    """Lets a client ask for ``text/event-stream``; the stream itself is not rendered by DRF."""

    media_type = EVENT_STREAM
    format = "event-stream"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> Any:
        return data


class AcceptOnly(DefaultContentNegotiation):
    """Negotiation by the Accept header alone (DRF's also reads ``?format=``)."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        for media_types in order_by_precedence(self.get_accept_list(request)):
            for renderer in renderers:
                if any(media_type_matches(renderer.media_type, m) for m in media_types):
                    return renderer, renderer.media_type
        raise exceptions.NotAcceptable(available_renderers=list(renderers))


class AcceptOnlySchema(AutoSchema):
    """No ``format`` query parameter: drf-spectacular lists one for a view of two renderers, but
    ``AcceptOnly`` reads none, and the strict query refused a generated client that sent it."""

    def _get_format_parameters(self) -> list[Any]:
        return []


class StreamApi(APIView):
    """A stream operation: its errors are JSON whatever the client accepts."""

    schema = AcceptOnlySchema()
    authentication_classes = STREAM_AUTHENTICATION
    renderer_classes = [JSONRenderer, EventStreamRenderer]
    content_negotiation_class = AcceptOnly

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        super().perform_content_negotiation(request, force)  # 406 for a client that takes neither
        return JSONRenderer(), JSON


def last_event_id(request: Request) -> int | None:
    raw = request.headers.get(LAST_EVENT_ID)
    if raw is None:
        return None
    value = raw.strip()
    # The length first: int() of a string of more than 4,300 digits raises ValueError.
    too_long = len(value) > len(str(limits.MAX_INT))
    if too_long or not value.isascii() or not value.isdigit() or int(value) > limits.MAX_INT:
        raise DomainError("invalid", f"{LAST_EVENT_ID} must be an id this stream sent.")
    return int(value)


def under_asgi(request: Request) -> bool:
    """Served by ``unoservice.asgi``, which streams async iterators from its event loop."""
    return bool(request.META.get(ASYNC_STREAMS))


# The last message of a stream whose sign-in ended: the 401 its reconnection would get, said on
# the stream, so that a client tells a sign-out from a network drop without trying again.
SIGNED_OUT = ended_frame(
    "not_authenticated",
    "The sign-in this stream was opened under has ended (signed out, ended from the session "
    "list, a password change): sign in again.",
)


def signed_in(request: Request, stream: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``stream`` while the session it was opened under lasts: ending a session (logout, the
    session list, a reused refresh token) ends its open streams too, within
    ``UNO_STREAM_SESSION_CHECK`` seconds. A stream opened without a session (an old DRF key, a
    ticket made with one) lasts while the key does: a password change or the account's deletion
    ends it too (it had gone on streaming). Its last message says so (``SIGNED_OUT``)."""
    # request.auth: the access token's row, the redeemed stream ticket (both say the session),
    # an old key's row (its key), or None (the admin's cookie).
    session_id = getattr(request.auth, "session_id", None)
    still: Callable[[], bool]
    if session_id is not None:
        still = partial(session_open, session_id)
    else:
        still = partial(
            old_key_signs_in, api.caller(request).pk, getattr(request.auth, "key", None)
        )
    return sse.while_true(stream, still, settings.UNO_STREAM_SESSION_CHECK, SIGNED_OUT)


def still_sees(game_id: str, viewer: User) -> bool:
    """Whether ``viewer`` may still see the game (``selectors.may_see``), read again."""
    try:
        selectors.get_game(game_id, viewer)
    except DomainError:
        return False
    return True


# The last message of a private game's stream whose viewer may no longer see the game: the 404
# its reconnection would get.
NOT_SHOWN = ended_frame(
    "not_found", "You may no longer see this private game (you left it): its stream ends."
)


def while_it_sees(game: Game, viewer: User, stream: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A private game's stream while its viewer may still see the game: one who left it (a
    waiting game's seat) went on receiving its events and its chat on a stream opened while
    seated, a private game's to someone it no longer shows to (404 on every other call). Asked
    as the session is (``signed_in``), within ``UNO_STREAM_SESSION_CHECK`` seconds. A public
    game never becomes private: its streams need not ask."""
    if not game.private:
        return stream
    sees = partial(still_sees, str(game.pk), viewer)
    return sse.while_true(stream, sees, settings.UNO_STREAM_SESSION_CHECK, NOT_SHOWN)


def event_stream(content: AsyncIterator[bytes] | Iterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type=EVENT_STREAM)
    response["Cache-Control"] = "no-cache"
    # nginx: do not buffer this response (docs/deploy.md turns buffering off for the paths too).
    response["X-Accel-Buffering"] = "no"
    return response


def json_errors(*codes: str) -> dict[Any, OpenApiResponse]:
    """``errors_for`` with the errors' media type said: a stream operation answers them as JSON."""
    return {(status, JSON): answer for status, answer in errors_for(*codes).items()}


# One message of the stream, as an SSE parser hands it over (a ``retry`` or a comment carries
# none of the three).
SSE_MESSAGE = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "The seq, or the notification id."},
        "event": {
            "type": "string",
            "description": f"The event's type, the notification's kind, or `{STREAM_ENDED}`.",
        },
        "data": {
            "type": "string",
            "description": "The event (or notification, or why the stream ended) JSON.",
        },
    },
}


# How every stream ends, said once for the three (their descriptions end with it).
STREAM_ENDING = (
    "A stream that ends for a reason a reconnection would meet again says why first: one "
    f'`event: {STREAM_ENDED}` message, without `id:`, `data: {{"code", "detail"}}` (an error '
    "code, as the error bodies have it): `not_authenticated` when the sign-in it was opened "
    "under ended (logout, the session list, a reused refresh token, a password change, the "
    "account's deletion: sign in again); on a game stream, `game_not_active` after the last "
    "event of a game that ended (finished, or abandoned), and `not_found` once a private "
    "game's viewer may no longer see it (they left it); on a tournament stream, "
    "`tournament_finished` after the last entry of a finished tournament. A stream that ends "
    "without it dropped, or its server stops: reconnect after `retry`, with `Last-Event-ID`."
)


def stream_answer(description: str) -> dict[Any, OpenApiResponse]:
    return {
        (200, EVENT_STREAM): OpenApiResponse(
            response=SSE_MESSAGE,
            description=f"{description} {STREAM_ENDING}",
            examples=[
                OpenApiExample(
                    "Two messages and a keep-alive",
                    response_only=True,
                    media_type=EVENT_STREAM,
                    value=(
                        "retry: 2000\n\n"
                        'id: 13\nevent: card_played\ndata: {"seq":13,"type":"card_played",'
                        '"seat":0,"at":"2026-12-01T10:00:00+00:00","data":{"card":"red-7"}}\n\n'
                        ": keep-alive\n\n"
                    ),
                )
            ],
        )
    }


RESUME_PARAMETER = OpenApiParameter(
    LAST_EVENT_ID,
    int,
    OpenApiParameter.HEADER,
    required=False,
    description="Go on after this id (the last one received); it wins over `after`.",
)


class GameStreamApi(StreamApi):
    @extend_schema(
        operation_id="games_stream",
        summary="The game's events as they happen (Server-Sent Events)",
        description=(
            "Each message is `id: <seq>`, `event: <type>`, `data: <the event JSON, as the event "
            "log serves it to the caller>`, in order, each once, only after its write committed. "
            "From `after` or `Last-Event-ID` on; with neither, from the game's current version "
            "(new events only). A comment line (`: keep-alive`) at least every 15 s. After the "
            f"last event of a game that ended, the stream ends (`event: {STREAM_ENDED}`, "
            "`game_not_active`). The table chat comes on the same "
            "stream as `event: chat` messages without an `id:` line (Last-Event-ID stays the "
            "last seq), `data: <the ChatMessage JSON>`, filtered for the caller (channels, "
            "blocks, mute); from `chat_after` on, or new messages only."
        ),
        tags=TAGS,
        parameters=[GameStreamQuerySerializer, RESUME_PARAMETER],
        responses={
            **stream_answer("The event stream."),
            **json_errors("invalid", "not_authenticated", "not_found", "not_acceptable"),
        },
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        query = api.query(GameStreamQuerySerializer, request)
        resume = last_event_id(request)
        viewer = api.caller(request)
        game = clock.caught_up(selectors.get_game(game_id, viewer))
        after = resume if resume is not None else query.get("after", game.version)
        talk = chat.stream_feed(game, viewer, query.get("chat_after"))
        if under_asgi(request):
            shown = while_it_sees(game, viewer, sse.game_stream(str(game.pk), viewer, after, talk))
            stream = signed_in(request, shown)
            return event_stream(attention.watched(stream, viewer.pk, str(game.pk)))
        return event_stream(sse.game_backlog(str(game.pk), viewer, after, talk))


def _with_snapshot(player: User) -> sse.Feed:
    """The caller's notifications, opened by the snapshot of their current games and open
    challenges (``player_stream.snapshot_frame``)."""

    def shown(row: Challenge) -> Any:  # as the challenge API's answers render it
        return json.loads(JSONRenderer().render(challenge_view(row)))

    def opening(player_id: int, cursor: int) -> bytes:
        mine = challenges.challenges_of(player)
        received = [shown(row) for row in mine if row.challenged_id == player.pk]
        sent = [shown(row) for row in mine if row.challenged_id != player.pk]
        return player_stream.snapshot_frame(player_id, cursor, received, sent)

    return replace(NOTIFICATIONS, opening=opening)


class PlayerStreamApi(StreamApi):
    @extend_schema(
        operation_id="players_me_stream",
        summary="The caller's notifications as they happen (Server-Sent Events)",
        description=(
            "Each message is `id: <notification id>` (increasing, in the order the "
            "notifications committed), `event: <kind>`, `data: <the notification JSON>`. It "
            "opens (every connection, a reconnection too) with one `event: snapshot` message, "
            "`id: <the id it goes on from>`, whose data is where the caller stands: `games` "
            "(each waiting or active game they sit in: `id`, `status`, `version`, `seat`, "
            "`seat_status`, `current_seat`, `my_turn`, `turn_deadline`; the oldest "
            f"{limits.SNAPSHOT_GAMES}, `more_games` when there are more), and `challenges`: "
            "`received` and `sent`, the open ones as `GET /api/v1/challenges/` shows them. So a "
            "program that (re)connects knows everything without other calls. Then, with "
            "`Last-Event-ID` (or `after`), the notifications missed since; with neither, new "
            "ones only. A comment line (`: keep-alive`) at least every 15 s."
        ),
        tags=TAGS,
        parameters=[PlayerStreamQuerySerializer, RESUME_PARAMETER],
        responses={
            **stream_answer("The notification stream."),
            **json_errors("invalid", "not_authenticated", "not_acceptable"),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        query = api.query(PlayerStreamQuerySerializer, request)
        header = last_event_id(request)
        resume = header if header is not None else query.get("after")
        player = api.caller(request)
        feed = _with_snapshot(player)
        if under_asgi(request):
            return event_stream(signed_in(request, sse.player_stream(player.pk, resume, feed)))
        return event_stream(sse.feed_backlog(player.pk, resume, feed))


class StreamTicketApi(APIView):
    @extend_schema(
        operation_id="auth_stream_ticket",
        summary="A single-use ticket to open a stream",
        description=(
            "For a browser's `EventSource`, which cannot send the Authorization header: the "
            "ticket goes in the stream's URL as `?ticket=…`, opens one connection, and is good "
            "for 60 s. Tokens never travel in URLs. A reconnection needs a new ticket: "
            "`EventSource`'s own retry resends the spent one and gets 401, so a client reconnects "
            "by itself with a new ticket and `?after=<the last id received>`."
        ),
        tags=TAGS,
        request=None,
        responses={200: StreamTicketSerializer, **errors_for("not_authenticated")},
        examples=[
            OpenApiExample(
                "Ticket",
                value={
                    "ticket": "l3JqQ0m2lVQ8Kq4m0m6bQk4Jt3Xv4V2u5E1X7f9hVfE",
                    "expires_at": "2026-12-01T10:01:00Z",
                },
                response_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        session_id = getattr(request.auth, "session_id", None)  # None: an old key's ticket
        issued = ticket_issue(player=api.caller(request), session_id=session_id)
        body = {"ticket": issued.ticket, "expires_at": issued.expires_at}
        return Response(StreamTicketSerializer(body).data)
