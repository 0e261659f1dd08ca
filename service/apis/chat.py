"""The table chat's views: send, list, mute (``service.chat`` decides)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.serializers import (
    ChatMessageSerializer,
    ChatMuteSerializer,
    ChatPageSerializer,
    ChatQuerySerializer,
    ChatSendSerializer,
)
from service import chat
from unoservice import api
from unoservice.api import APIView
from unoservice.schema import errors_for

TAGS = ["chat"]
ON_A_GAME = ("not_authenticated", "not_found")
MESSAGE_EXAMPLE = {
    "id": 41,
    "author": {"id": 7, "username": "ada"},
    "seat": 0,
    "channel": "players",
    "text": "good luck!",
    "reaction": None,
    "version": 12,
    "at": "2026-12-01T10:00:00+00:00",
}


class GameChatApi(APIView):
    @extend_schema(
        operation_id="games_chat_list",
        summary="The table chat the caller may see",
        description=(
            "Messages after `after` (an id), oldest first: the `players` channel, and for a "
            "spectator also the `spectators` channel; never a message of someone the caller is "
            "kept apart from (a block, either way); none at all while the caller has muted the "
            "game's chat (`muted: true`). Each message carries the game's `version` when it was "
            "sent, so a replay shows the chat up to its position."
        ),
        tags=TAGS,
        parameters=[ChatQuerySerializer],
        responses={200: ChatPageSerializer, **errors_for("invalid", *ON_A_GAME)},
        examples=[
            OpenApiExample(
                "Two lines",
                response_only=True,
                value={"messages": [MESSAGE_EXAMPLE], "muted": False},
            )
        ],
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = api.query(ChatQuerySerializer, request)
        body = chat.chat_list(
            player=api.caller(request), game_id=game_id, after=query["after"], limit=query["limit"]
        )
        return Response(body)

    @extend_schema(
        operation_id="games_chat_send",
        summary="Say something at the table: a text or a quick reaction",
        description=(
            "Exactly one of `text` (1 to 200 characters after trimming) and `reaction` (a key of "
            "the fixed set). Seated players write in the `players` channel; spectators only in "
            "games created with `spectator_chat`, in the `spectators` channel, which seated "
            "players do not see. At most 5 messages in 10 s per player (429 `chat_too_fast`, "
            "with Retry-After); an account staff silenced gets 403 `chat_silenced` with `until`. "
            "The message reaches the game's streams as a `chat` frame after it commits."
        ),
        tags=TAGS,
        request=ChatSendSerializer,
        responses={
            201: ChatMessageSerializer,
            **errors_for(
                "invalid", *ON_A_GAME, "chat_not_allowed", "chat_silenced", "chat_too_fast"
            ),
        },
        examples=[
            OpenApiExample("A text", request_only=True, value={"text": "good luck!"}),
            OpenApiExample("A reaction", request_only=True, value={"reaction": "well_played"}),
            OpenApiExample("The message", response_only=True, value=MESSAGE_EXAMPLE),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = api.validated(ChatSendSerializer, request.data)
        said = chat.Said(text=data.get("text", ""), reaction=data.get("reaction", ""))
        body = chat.chat_send(player=api.caller(request), game_id=game_id, said=said)
        return Response(body, status=status.HTTP_201_CREATED)


class GameChatMuteApi(APIView):
    @extend_schema(
        operation_id="games_chat_mute",
        summary="Mute this game's chat for the caller",
        description=(
            "Kept per player and game: the list answers no messages and the caller's streams of "
            "the game send no `chat` frames until unmuted (`DELETE`). Safe twice."
        ),
        tags=TAGS,
        request=None,
        responses={200: ChatMuteSerializer, **errors_for(*ON_A_GAME)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        return Response(chat.chat_mute(player=api.caller(request), game_id=game_id, muted=True))

    @extend_schema(
        operation_id="games_chat_unmute",
        summary="Unmute this game's chat",
        description="Messages sent while muted stay unsent on the stream; the list shows them.",
        tags=TAGS,
        request=None,
        responses={200: ChatMuteSerializer, **errors_for(*ON_A_GAME)},
    )
    def delete(self, request: Request, game_id: str) -> Response:
        return Response(chat.chat_mute(player=api.caller(request), game_id=game_id, muted=False))
