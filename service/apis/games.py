"""Thin DRF views: validate input, call one service or selector, return its answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors
from games.engine import limits
from games.engine.errors import ACTION_CODES
from games.event_schema import GAME_EXAMPLE
from games.models import Game
from games.serializers import (
    ActionSerializer,
    BotAddSerializer,
    EventPageSerializer,
    EventsQuerySerializer,
    GameCreateSerializer,
    GameExportSerializer,
    GameListQuerySerializer,
    GamePageSerializer,
    GameViewSerializer,
    JoinByCodeSerializer,
    MatchmakingSerializer,
    ReplayQuerySerializer,
    action_shape_problem,
    bank_of,
)
from service import away, clock, lobby, longpoll, play, tables
from unoservice import api
from unoservice.api import APIView
from unoservice.errors import DomainError
from unoservice.pages import whole_page_response
from unoservice.schema import errors_for

# What every operation on one game may answer besides its own refusals.
ON_A_GAME = ("not_authenticated", "not_found")


def _view(game_id: str, request: Request) -> dict[str, Any]:
    player = api.caller(request)
    game = clock.caught_up(selectors.get_game(game_id, player))
    return away.game_view(game, player)


class GameListApi(APIView):
    throttle_scope = "games"  # creating only; rates: settings.UNO_THROTTLE_RATES
    throttle_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="games_list",
        summary="List games",
        parameters=[GameListQuerySerializer],
        responses={
            200: GamePageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
    )
    def get(self, request: Request) -> Response:
        query = api.query(GameListQuerySerializer, request)
        games = selectors.game_list(
            api.caller(request),
            status=query.get("status"),
            mine=query["mine"],
            my_turn=query["my_turn"],
        )
        return whole_page_response(
            request,
            self,
            games,
            lambda _, page: selectors.game_summaries(page),
            size=limits.GAMES_PAGE,
            default=limits.GAMES_PAGE_DEFAULT,
        )

    @extend_schema(
        operation_id="games_create",
        summary="Create a game; the caller takes seat 0",
        request=GameCreateSerializer,
        responses={
            201: GameViewSerializer,
            **errors_for(
                "invalid",
                "invalid_rules",
                "invalid_deck",
                "invalid_clock",
                "not_a_bot_account",
                "permission_denied",
                "blocked",
                "too_many_waiting_games",
                "not_authenticated",
            ),
        },
        examples=[
            OpenApiExample(
                "Four players with stacking",
                request_only=True,
                value={"max_players": 4, "turn_timeout": 3600, "rules": {"stacking": True}},
            ),
            OpenApiExample(
                "Against a bot account (a player's program) and a basic bot",
                request_only=True,
                value={"max_players": 3, "bot_accounts": ["deep-uno"], "bots": ["basic"]},
            ),
            OpenApiExample(
                "Correspondence play with a time bank",
                request_only=True,
                value={
                    "max_players": 3,
                    "clock": {"type": "bank", "initial": 259200, "increment": 86400, "max": 604800},
                },
            ),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(GameCreateSerializer, request.data)
        for seated in ("bots", "bot_accounts"):
            if seated in data:
                data[seated] = tuple(data[seated])
        data["bank"] = bank_of(data.pop("clock", None))
        game = lobby.game_create(player=api.caller(request), spec=lobby.NewGame(**data))
        body = away.game_view(game, api.caller(request))
        return Response(body, status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="The game as the caller may see it",
        responses={200: GameViewSerializer, **errors_for(*ON_A_GAME)},
        examples=[GAME_EXAMPLE],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(_view(game_id, request))


def _game_answer(game: Any, request: Request) -> Response:
    return Response(away.game_view(game, api.caller(request)))


class GameJoinApi(APIView):
    throttle_scope = "joins"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="games_join",
        summary="Take the next free seat",
        request=None,
        responses={
            200: GameViewSerializer,
            **errors_for(
                *ON_A_GAME,
                "game_full",
                "game_not_waiting",
                "already_seated",
                "too_many_waiting_games",
            ),
        },
        examples=[GAME_EXAMPLE],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return _game_answer(lobby.game_join(player=api.caller(request), game_id=game_id), request)


class GameJoinByCodeApi(APIView):
    throttle_scope = (
        "joins"  # also what keeps codes from being guessed; settings.UNO_THROTTLE_RATES
    )

    @extend_schema(
        operation_id="games_join_by_code",
        summary="Take the next free seat of a private game by its invite code",
        description=(
            "The code is the `invite_code` a seated player sees in the game view. A caller who "
            "already sits in the game gets its view."
        ),
        request=JoinByCodeSerializer,
        responses={
            200: GameViewSerializer,
            **errors_for(
                "invalid",
                "not_authenticated",
                "invite_code_unknown",
                "game_full",
                "game_not_waiting",
                "too_many_waiting_games",
            ),
        },
        examples=[
            OpenApiExample("A code", request_only=True, value={"code": "7KQ2-MXW9PA"}),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(JoinByCodeSerializer, request.data)
        game = tables.game_join_by_code(player=api.caller(request), code=data["code"])
        return _game_answer(game, request)


class MatchmakingApi(APIView):
    throttle_scope = "joins"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="matchmaking",
        summary="Quick match: a seat in a waiting public game of these settings",
        description=(
            "Seats the caller in the oldest waiting public game with exactly these settings and "
            "a free seat, or creates one (never two half-filled games of the same settings at "
            "once). A caller already seated in such a game gets it back. With "
            "`fill_with_bots_after`, basic bots fill the free seats that many seconds from now "
            "and the game starts. Bot accounts (players' programs) match only with "
            "`bots_welcome: true`, among the games made so (403 `bots_not_welcome` otherwise)."
        ),
        tags=["games"],
        request=MatchmakingSerializer,
        responses={
            200: GameViewSerializer,
            **errors_for(
                "invalid",
                "invalid_rules",
                "not_authenticated",
                "bots_not_welcome",
                "game_full",
                "too_many_waiting_games",
            ),
        },
        examples=[
            OpenApiExample(
                "Two players, stacking, bots after a minute",
                request_only=True,
                value={"players": 2, "rules": {"stacking": True}, "fill_with_bots_after": 60},
            ),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(MatchmakingSerializer, request.data)
        game = tables.game_matchmake(player=api.caller(request), match=tables.Match(**data))
        return _game_answer(game, request)


class GameRematchApi(APIView):
    @extend_schema(
        operation_id="games_rematch",
        summary="Play again with the same players and settings",
        description=(
            "After a finished game, by one of its players: the first caller creates the "
            "rematch (the same settings; the game's bots seated; private, reserved for these "
            "players, who are sent `invited`), the others join it by the same call, in any "
            "order. It starts once every person has joined, with the seats in the finished "
            "game's order shifted by one (the next dealer deals). A player kept apart from its "
            "creator (a block, either way) is not invited, and one kept apart from a player "
            "seated in it is not waited for: asking, they get 403 `blocked`; an account deleted "
            "since is neither invited nor waited for. When too few could then take a seat for "
            "it to start (its only other player deleted their account, or blocked the caller), "
            "no rematch is made: 409 `not_enough_players`. The answer is the rematch's view; "
            "the finished game's view shows its id as `rematch`."
        ),
        request=None,
        responses={
            200: GameViewSerializer,
            **errors_for(
                *ON_A_GAME,
                "not_a_player",
                "game_not_finished",
                "too_many_waiting_games",
                "blocked",
                "not_enough_players",
            ),
        },
        examples=[GAME_EXAMPLE],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = tables.game_rematch(player=api.caller(request), game_id=game_id)
        return _game_answer(game, request)


class GameBotsApi(APIView):
    @extend_schema(
        operation_id="games_bots_add",
        summary="The host seats a bot (or a bot account, by name) in a waiting game",
        description=(
            "`level`: a built-in bot, played by the server. `account`: a bot account's username "
            "(a player's program, docs/bot-api.md): it takes the seat as a player, is told so "
            "(`invited`) and plays through the API itself."
        ),
        request=BotAddSerializer,
        responses={
            200: GameViewSerializer,
            **errors_for(
                *ON_A_GAME,
                "invalid",
                "not_a_player",
                "permission_denied",
                "not_a_bot_account",
                "already_seated",
                "blocked",
                "game_full",
                "game_not_waiting",
            ),
        },
        examples=[
            OpenApiExample("A basic bot", request_only=True, value={"level": "basic"}),
            OpenApiExample("A bot account", request_only=True, value={"account": "deep-uno"}),
            GAME_EXAMPLE,
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = api.validated(BotAddSerializer, request.data)
        game = lobby.game_add_bot(
            player=api.caller(request),
            game_id=game_id,
            level=data.get("level"),
            account=data.get("account"),
        )
        return _game_answer(game, request)


class GameLeaveApi(APIView):
    @extend_schema(
        operation_id="games_leave",
        summary="Leave a game that has not started",
        request=None,
        responses={
            200: GameViewSerializer,
            **errors_for(*ON_A_GAME, "not_a_player", "game_not_waiting"),
        },
        examples=[GAME_EXAMPLE],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return _game_answer(lobby.game_leave(player=api.caller(request), game_id=game_id), request)


class GameStartApi(APIView):
    @extend_schema(
        operation_id="games_start",
        summary="Start the game (the host, with 2 or more seated)",
        request=None,
        responses={
            200: GameViewSerializer,
            **errors_for(
                *ON_A_GAME,
                "not_a_player",
                "permission_denied",
                "game_not_waiting",
                "not_enough_players",
            ),
        },
        examples=[GAME_EXAMPLE],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return _game_answer(lobby.game_start(player=api.caller(request), game_id=game_id), request)


class GameResignApi(APIView):
    @extend_schema(
        operation_id="games_resign",
        summary="Leave a started game for good, as a forfeit",
        request=None,
        responses={
            200: GameViewSerializer,
            **errors_for(*ON_A_GAME, "not_a_player", "game_not_active"),
        },
        examples=[GAME_EXAMPLE],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return _game_answer(play.game_resign(player=api.caller(request), game_id=game_id), request)


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
                {
                    "type": "string",
                    "minLength": limits.IDEMPOTENCY_KEY_LENGTH.low,
                    "maxLength": limits.IDEMPOTENCY_KEY_LENGTH.high,
                },
                OpenApiParameter.HEADER,
                required=False,
                description=(
                    "Any string of 1 to 255 characters (else 400 `invalid`), unique per intended "
                    "action. The same key "
                    "from the same player for the same game returns the first answer again and "
                    "acts once; with a different body, 422 `idempotency_key_reused`. Only "
                    "successful answers are stored: a key whose first request was refused (4xx) "
                    "may act when sent again."
                ),
            )
        ],
        responses={
            200: GameViewSerializer,
            **errors_for(*ON_A_GAME, *ACTION_CODES, "version_conflict", "idempotency_key_reused"),
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
        problem = action_shape_problem(body)
        if problem is not None or not isinstance(body, dict):
            raise DomainError("invalid", problem or "The body must be a JSON object.")
        action = {name: value for name, value in body.items() if name != "expected_version"}
        key = request.headers.get("Idempotency-Key")
        if key is not None and not limits.IDEMPOTENCY_KEY_LENGTH.holds(len(key)):
            raise DomainError("invalid", "An Idempotency-Key has 1 to 255 characters.")
        played = play.game_act(
            player=api.caller(request),
            game_id=game_id,
            action=action,
            expected_version=body.get("expected_version"),
            idempotency_key=key,
            request_body=body,
        )
        if played.answer is not None:
            return Response(played.answer)
        return Response(away.game_view(played.game, api.caller(request), state=played.state))


class GameEventsApi(APIView):
    @extend_schema(
        operation_id="games_events",
        summary="The event log after seq `after`, as the caller may see it",
        parameters=[EventsQuerySerializer],
        responses={
            200: EventPageSerializer,
            **errors_for("invalid", *ON_A_GAME, "throttled"),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = api.query(EventsQuerySerializer, request)
        after, limit = query["after"], query["limit"]
        player = api.caller(request)
        clock.caught_up(selectors.get_game(game_id, player))

        def fetch() -> tuple[Game, list[dict[str, Any]]]:
            game = selectors.get_game(game_id, player)
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
            **errors_for("invalid", "seq_out_of_range", *ON_A_GAME),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = api.query(ReplayQuerySerializer, request)
        player = api.caller(request)
        game = clock.caught_up(selectors.get_game(game_id, player))
        return Response(selectors.game_replay(game, player, at=query["at"]))


class GameExportApi(APIView):
    throttle_scope = "replays"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="games_export",
        summary="A finished game as one document, to replay and verify",
        description=(
            "Settings, seats, every event as stored (every card revealed) with its `hash`, and "
            "the `seed` and `salt` the `deck_commitment` commits to. `manage.py verify_game` and "
            "`python -m games.fairness EXPORT.json` check it: docs/fairness.md."
        ),
        responses={
            200: GameExportSerializer,
            **errors_for(*ON_A_GAME, "game_not_finished"),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = clock.caught_up(selectors.get_game(game_id, api.caller(request)))
        return Response(selectors.game_export(game))
