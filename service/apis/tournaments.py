"""Tournaments over HTTP (``service.tournaments``, run by ``service.tournament_steps``): create,
list, one tournament's detail, join, withdraw, and the stream of its log."""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.engine import limits
from games.models import Tournament
from games.serializers import (
    TournamentCreateSerializer,
    TournamentListQuerySerializer,
    TournamentPageSerializer,
    TournamentSerializer,
)
from service import tournament_steps, tournaments
from service.apis.streams import (
    RESUME_PARAMETER,
    StreamApi,
    event_stream,
    json_errors,
    last_event_id,
    signed_in,
    stream_answer,
    under_asgi,
)
from service.tournament_stream import CHANGES
from streams import sse
from streams.serializers import TournamentStreamQuerySerializer
from unoservice import api
from unoservice.api import APIView
from unoservice.pages import page_response
from unoservice.schema import errors_for

TAGS = ["tournaments"]
ON_ONE = ("not_authenticated", "not_found")


def _detail(tournament: Tournament, request: Request) -> dict[str, Any]:
    return tournaments.tournament_detail(tournament, api.caller(request))


def _loaded(tournament_id: str) -> Tournament:
    return tournament_steps.caught_up(tournaments.tournament_get(tournament_id))


class TournamentListApi(APIView):
    # Making one makes games (and notifies players): it counts as creating a game does, in the
    # same per-player rate; a player sent 62 challenges to one other in a row (a QA run).
    throttle_scope = "games"  # rates: settings.UNO_THROTTLE_RATES
    throttle_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a tournament",
        description=(
            "The host need not play (they join like anyone). Every table of the tournament is an "
            "ordinary game with `settings` (validated as `POST /games/` validates them), seated "
            "and started by the tournament; its games are rated like any other."
        ),
        tags=TAGS,
        request=TournamentCreateSerializer,
        responses={
            201: TournamentSerializer,
            **errors_for(
                "invalid",
                "invalid_rules",
                "invalid_clock",
                "invalid_table_size",
                "start_in_past",
                "not_authenticated",
            ),
        },
        examples=[
            OpenApiExample(
                "A Swiss of 4 rounds at tables of 4",
                request_only=True,
                value={
                    "name": "Friday Swiss",
                    "format": "swiss",
                    "table_size": 4,
                    "rounds": 4,
                    "starts_at": "2026-12-04T18:00:00Z",
                    "settings": {"target_score": 200, "turn_timeout": 60},
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(TournamentCreateSerializer, request.data)
        raw = request.data.get("settings") if isinstance(request.data, dict) else None
        settings = tournaments.taken(
            dict(data.get("settings", {})), set(raw) if isinstance(raw, dict) else set()
        )
        new = tournaments.NewTournament(
            name=data["name"],
            format=data["format"],
            table_size=data["table_size"],
            settings=_json_settings(settings),
            starts_at=data["starts_at"],
            rounds=data.get("rounds"),
            minutes=data.get("minutes"),
            bots_allowed=data["bots_allowed"],
        )
        row = tournaments.tournament_create(host=api.caller(request), new=new)
        return Response(_detail(row, request), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tournaments_list",
        summary="List tournaments, the latest start first",
        tags=TAGS,
        parameters=[TournamentListQuerySerializer],
        responses={
            200: TournamentPageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
    )
    def get(self, request: Request) -> Response:
        query = api.query(TournamentListQuerySerializer, request)
        caller = api.caller(request)
        rows = tournaments.tournament_list(
            status=query.get("status"), mine=caller if query["mine"] else None
        )
        return page_response(
            request,
            self,
            rows,
            lambda _, row: tournaments.tournament_summary(row),
            size=limits.TOURNAMENTS_PAGE,
            default=limits.TOURNAMENTS_PAGE_DEFAULT,
        )


def _json_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The validated settings as JSON (nested serializers give ordered dicts)."""
    return {
        key: dict(value) if isinstance(value, dict) else value for key, value in settings.items()
    }


class TournamentDetailApi(APIView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament: players, rounds, tables and standings",
        description=(
            "`rounds[].tables[]`: each table's game and its players by seat (`bots`: the seats "
            "basic bots fill); a duplicate round lists one table per deal. `standings`: points, "
            "then `tiebreak` (the sum of the opponents' points), then rating, computed from the "
            "finished tables' results. Nothing here shows a card."
        ),
        tags=TAGS,
        responses={200: TournamentSerializer, **errors_for(*ON_ONE)},
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return Response(_detail(_loaded(tournament_id), request))


class TournamentJoinApi(APIView):
    @extend_schema(
        operation_id="tournaments_join",
        summary="Take part in a tournament",
        description=(
            "Before the start; an arena also while it runs. A bot account only where "
            "`bots_allowed`."
        ),
        tags=TAGS,
        request=None,
        responses={
            200: TournamentSerializer,
            **errors_for(
                *ON_ONE,
                "tournament_started",
                "tournament_finished",
                "tournament_already_joined",
                "tournament_full",
                "bots_not_allowed",
            ),
        },
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        row = tournaments.tournament_join(
            player=api.caller(request), tournament_id=str(_loaded(tournament_id).pk)
        )
        return Response(_detail(row, request))


class TournamentWithdrawApi(APIView):
    @extend_schema(
        operation_id="tournaments_withdraw",
        summary="Stop taking new tables",
        description="A running game goes on by its clock; no new table follows.",
        tags=TAGS,
        request=None,
        responses={
            200: TournamentSerializer,
            **errors_for(*ON_ONE, "tournament_not_joined", "tournament_finished"),
        },
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        row = tournaments.tournament_withdraw(
            player=api.caller(request), tournament_id=str(_loaded(tournament_id).pk)
        )
        return Response(_detail(row, request))


class TournamentStreamApi(StreamApi):
    @extend_schema(
        operation_id="tournaments_stream",
        summary="The tournament's changes as they happen (Server-Sent Events)",
        description=(
            "Each message is `id: <seq of the tournament's log>`, `event: tournament_changed`, "
            '`data: {"seq", "type", "at", "data"}` (the log entry: `player_joined`, '
            "`round_paired` with the tables and seats, `table_finished` with the places, ...), "
            "in order, each once, after its write committed; a duplicate round's "
            "`table_finished` comes without `places` and `winner` until the round is revealed "
            "(`round_finished`: the detail shows them then). From `after` or `Last-Event-ID` "
            "on; with neither, new entries only. A comment line (`: keep-alive`) at least "
            "every 15 s. Re-read the detail for the standings."
        ),
        tags=TAGS,
        parameters=[TournamentStreamQuerySerializer, RESUME_PARAMETER],
        responses={
            **stream_answer("The tournament's log as it grows."),
            **json_errors("invalid", "not_authenticated", "not_found", "not_acceptable"),
        },
    )
    def get(self, request: Request, tournament_id: str) -> StreamingHttpResponse:
        query = api.query(TournamentStreamQuerySerializer, request)
        header = last_event_id(request)
        resume = header if header is not None else query.get("after")
        api.caller(request)
        key = str(tournaments.tournament_get(tournament_id).pk)
        if under_asgi(request):
            # A signed-out phone stops following the tournament too, as it does its games.
            return event_stream(signed_in(request, sse.tournament_stream(key, resume, CHANGES)))
        return event_stream(sse.feed_backlog(key, resume, CHANGES))
