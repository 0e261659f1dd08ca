"""Thin DRF views: validate input, call one service or selector, return its answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import longpoll, selectors, services
from games.models import Game
from games.serializers import (
    ACTION_SERIALIZERS,
    ActionSerializer,
    EventPageSerializer,
    EventsQuerySerializer,
    GameCreateSerializer,
    GameListQuerySerializer,
    GamePageSerializer,
    GameViewSerializer,
    ReplayQuerySerializer,
    valid_action,
)
from unoservice.errors import DomainError
from unoservice.schema import UNAUTHORIZED, error_response

NOT_FOUND = {404: error_response("No such game.", "not_found")}
INVALID = {400: error_response("Malformed body or query.", "invalid")}


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise DomainError("invalid", "The body must be a JSON object.", 400)
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _query(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    return _validated(serializer_class, request.query_params.dict())


def _player(request: Request) -> User:
    """The signed-in caller (every games endpoint requires authentication)."""
    user = request.user
    if not isinstance(user, User):
        raise DomainError("not_authenticated", "Sign in with a token.", 401)
    return user


def _view(game_id: str, request: Request) -> dict[str, Any]:
    game = services.caught_up(selectors.get_game(game_id))
    return selectors.game_view(game, _player(request))


GAME_EXAMPLE = OpenApiExample(
    "An active game seen by seat 0",
    response_only=True,
    value={
        "id": "5f0c6f9e-2b1a-4a53-9a3e-6c1f7d1e2a10",
        "status": "active",
        "version": 4,
        "settings": {
            "max_players": 2,
            "target_score": 500,
            "turn_timeout": 86400,
            "max_timeouts": 3,
            "rules": {"stacking": False},
        },
        "seats": [
            {
                "seat": 0,
                "player": {"id": 1, "username": "ada"},
                "hand_count": 7,
                "score": 0,
                "uno": False,
                "catchable": False,
                "status": "playing",
                "timeouts": 0,
            },
            {
                "seat": 1,
                "player": {"id": 2, "username": "bob"},
                "hand_count": 7,
                "score": 0,
                "uno": False,
                "catchable": False,
                "status": "playing",
                "timeouts": 0,
            },
        ],
        "round": {
            "number": 1,
            "dealer": 1,
            "current_seat": 0,
            "direction": 1,
            "top_card": "red-7",
            "color": "red",
            "draw_pile": 93,
            "discard_pile": 1,
            "pending": None,
            "turn_deadline": "2026-11-30T12:00:00+00:00",
        },
        "you": {
            "seat": 0,
            "hand": ["red-3", "blue-7", "wild", "green-1", "yellow-9", "red-skip", "blue-0"],
            "legal_actions": [
                {"action": "play", "card": "red-3"},
                {"action": "play", "card": "blue-7"},
                {"action": "play", "card": "wild", "color": "red"},
                {"action": "draw"},
            ],
        },
        "last_round": None,
        "winner_seat": None,
    },
)


class GamePagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class GameListApi(APIView):
    throttle_scope = "games"  # creating only; rates: settings.UNO_THROTTLE_RATES
    throttle_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="games_list",
        summary="List games",
        parameters=[GameListQuerySerializer],
        responses={
            200: GamePageSerializer,
            **INVALID,
            404: error_response("A page past the last one.", "not_found"),
            **UNAUTHORIZED,
        },
    )
    def get(self, request: Request) -> Response:
        query = _query(GameListQuerySerializer, request)
        games = selectors.game_list(
            _player(request),
            status=query.get("status"),
            mine=query["mine"],
            my_turn=query["my_turn"],
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        return paginator.get_paginated_response([selectors.game_summary(g) for g in page])

    @extend_schema(
        operation_id="games_create",
        summary="Create a game; the caller takes seat 0",
        request=GameCreateSerializer,
        responses={
            201: GameViewSerializer,
            400: error_response("Malformed settings.", "invalid", "invalid_rules", "invalid_deck"),
            403: error_response(
                "A deck or a seed was given by a player who is not staff.", "permission_denied"
            ),
            409: error_response(
                "The caller has a seat in as many waiting games as they may "
                "(`UNO_MAX_WAITING_GAMES`).",
                "too_many_waiting_games",
            ),
            **UNAUTHORIZED,
        },
        examples=[
            OpenApiExample(
                "Four players with stacking",
                request_only=True,
                value={"max_players": 4, "turn_timeout": 3600, "rules": {"stacking": True}},
            ),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        data = _validated(GameCreateSerializer, request.data)
        game = services.game_create(player=_player(request), spec=services.NewGame(**data))
        body = selectors.game_view(game, _player(request))
        return Response(body, status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="The game as the caller may see it",
        responses={200: GameViewSerializer, **NOT_FOUND, **UNAUTHORIZED},
        examples=[GAME_EXAMPLE],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(_view(game_id, request))


def _lobby_view(
    name: str, summary: str, errors: dict[int, Any], scope: str | None = None
) -> type[APIView]:
    action = getattr(services, f"game_{name}")

    class LobbyApi(APIView):
        throttle_scope = scope  # rates: settings.UNO_THROTTLE_RATES

        @extend_schema(
            operation_id=f"games_{name}",
            summary=summary,
            request=None,
            responses={200: GameViewSerializer, **errors, **NOT_FOUND, **UNAUTHORIZED},
            examples=[GAME_EXAMPLE],
        )
        def post(self, request: Request, game_id: str) -> Response:
            game = action(player=_player(request), game_id=game_id)
            return Response(selectors.game_view(game, _player(request)))

    LobbyApi.__name__ = LobbyApi.__qualname__ = f"Game{name.title()}Api"
    return LobbyApi


NOT_SEATED = error_response("The caller has no seat in this game.", "not_a_player")
GameJoinApi = _lobby_view(
    "join",
    "Take the next free seat",
    {
        409: error_response(
            "", "game_full", "game_not_waiting", "already_seated", "too_many_waiting_games"
        )
    },
    scope="joins",
)
GameLeaveApi = _lobby_view(
    "leave",
    "Leave a game that has not started",
    {403: NOT_SEATED, 409: error_response("", "game_not_waiting")},
)
GameStartApi = _lobby_view(
    "start",
    "Start the game (the host, with 2 or more seated)",
    {
        403: error_response("Not seated, or not the host.", "not_a_player", "permission_denied"),
        409: error_response("", "game_not_waiting", "not_enough_players"),
    },
)
GameResignApi = _lobby_view(
    "resign",
    "Leave a started game for good, as a forfeit",
    {403: NOT_SEATED, 409: error_response("", "game_not_active")},
)


class GameActionsApi(APIView):
    throttle_scope = "actions"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="games_act",
        summary="Act in the game",
        description=(
            "Send one action; the answer is the game view after it. `you.legal_actions` lists "
            "every action the server accepts from the caller right now. An `Idempotency-Key` "
            "header makes a retry safe: the same key returns the first answer and acts once."
        ),
        request=ActionSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description=(
                    "Any string up to 255 characters, unique per intended action. The same key "
                    "from the same player for the same game returns the first answer again and "
                    "acts once; with a different body, 422 `idempotency_key_reused`. Only "
                    "successful answers are stored: a key whose first request was refused (4xx) "
                    "may act when sent again."
                ),
            )
        ],
        responses={
            200: GameViewSerializer,
            400: error_response("Malformed action.", "invalid"),
            403: NOT_SEATED,
            **NOT_FOUND,
            409: error_response(
                "The game's state does not allow it.",
                "not_your_turn",
                "version_conflict",
                "game_not_active",
            ),
            422: error_response(
                "A move the rules forbid.",
                "card_not_in_hand",
                "illegal_card",
                "color_required",
                "nothing_to_challenge",
                "nothing_to_pass",
                "nothing_to_catch",
                "must_play",
                "target_required",
                "invalid_target",
                "idempotency_key_reused",
            ),
            **UNAUTHORIZED,
        },
        examples=[
            OpenApiExample(
                "Play a card", request_only=True, value={"action": "play", "card": "red-3"}
            ),
            OpenApiExample(
                "Play a wild and say UNO",
                request_only=True,
                value={"action": "play", "card": "wild", "color": "blue", "uno": True},
            ),
            OpenApiExample(
                "Draw", request_only=True, value={"action": "draw", "expected_version": 12}
            ),
            OpenApiExample(
                "Catch seat 2", request_only=True, value={"action": "catch", "target": 2}
            ),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = request.data
        if not isinstance(body, dict):
            raise DomainError("invalid", "The body must be a JSON object.", 400)
        name = body.get("action")
        if not isinstance(name, str) or name not in ACTION_SERIALIZERS:
            raise DomainError(
                "invalid", f"'action' must be one of {', '.join(ACTION_SERIALIZERS)}.", 400
            )
        data = valid_action(body)
        expected_version = data.pop("expected_version", None)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 255:
            raise DomainError("invalid", "An Idempotency-Key has 1 to 255 characters.", 400)
        result = services.game_act(
            player=_player(request),
            game_id=game_id,
            action=data,
            expected_version=expected_version,
            idempotency_key=key,
            request_body=body,
        )
        return Response(result.body, status=result.status_code)


class GameEventsApi(APIView):
    @extend_schema(
        operation_id="games_events",
        summary="The event log after seq `after`, as the caller may see it",
        parameters=[EventsQuerySerializer],
        responses={
            200: EventPageSerializer,
            **INVALID,
            **NOT_FOUND,
            **UNAUTHORIZED,
            429: error_response("Too many long polls held open (`wait`).", "throttled"),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = _query(EventsQuerySerializer, request)
        after, limit = query["after"], query["limit"]
        services.caught_up(selectors.get_game(game_id))
        player = _player(request)

        def fetch() -> tuple[Game, list[dict[str, Any]]]:
            game = selectors.get_game(game_id)
            return game, selectors.game_events(game, player, after=after, limit=limit)

        game, events = longpoll.poll(player.pk, query["wait"], fetch, lambda found: bool(found[1]))
        next_url = None
        if len(events) == limit:
            params = request.query_params.copy()
            params["after"] = str(events[-1]["seq"])
            params.pop("wait", None)
            next_url = request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
        # The game row was read just before the events: an action committed in between shows in
        # the events, so the page's version is never behind its last event.
        version = max(game.version, events[-1]["seq"]) if events else game.version
        return Response({"events": events, "version": version, "next": next_url})


class GameReplayApi(APIView):
    throttle_scope = "replays"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="games_replay",
        summary="The game view as it stood right after event `at`",
        description="A finished game replays fully revealed, for everyone.",
        parameters=[ReplayQuerySerializer],
        responses={
            200: GameViewSerializer,
            400: error_response("Malformed or out-of-range `at`.", "invalid", "seq_out_of_range"),
            **NOT_FOUND,
            **UNAUTHORIZED,
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = _query(ReplayQuerySerializer, request)
        game = services.caught_up(selectors.get_game(game_id))
        return Response(selectors.game_replay(game, _player(request), at=query["at"]))
