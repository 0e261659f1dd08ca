"""Challenges over HTTP (``service.challenges``): one player asks another (or a bot) to a game
of two; accepted, the game is made and started with both seated."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import Challenge
from games.serializers import (
    ChallengeCreateSerializer,
    ChallengeListQuerySerializer,
    ChallengeListSerializer,
    ChallengeSerializer,
)
from service import challenges
from unoservice import api
from unoservice.api import APIView
from unoservice.schema import errors_for

TAGS = ["challenges"]


def challenge_view(row: Challenge) -> dict[str, Any]:
    return {
        "id": row.pk,
        "from": row.challenger.get_username(),
        "to": row.challenged.get_username(),
        "challenger": challenges.ref(row.challenger),
        "challenged": challenges.ref(row.challenged),
        "settings": row.settings,
        "status": challenges.status_of(row),
        "expires_at": row.expires_at,
        "game": row.game_id,
        "created_at": row.created_at,
    }


class ChallengeListApi(APIView):
    # Making one makes games (and notifies players): it counts as creating a game does, in the
    # same per-player rate; a player sent 62 challenges to one other in a row (a QA run).
    throttle_scope = "games"  # rates: settings.UNO_THROTTLE_RATES
    throttle_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="challenges_create",
        summary="Challenge a player (or a bot) to a game of two",
        description=(
            "`to` names the player by username. The player is notified (`challenge`: inbox, "
            "player stream, webhooks, Web Push) and accepts or declines before `expires_at`. A "
            "bot accepts at once: the answer is then `accepted`, with the started game. 400 "
            "`cannot_challenge_yourself`, 404 `not_found` for an unknown name, 403 `blocked` when "
            "either of the two blocked the other."
        ),
        tags=TAGS,
        request=ChallengeCreateSerializer,
        responses={
            201: ChallengeSerializer,
            **errors_for(
                "invalid",
                "invalid_rules",
                "cannot_challenge_yourself",
                "not_authenticated",
                "blocked",
                "not_found",
                "too_many_waiting_games",
            ),
        },
        examples=[
            OpenApiExample(
                "Live, a minute to answer",
                value={"to": "bea", "settings": {"turn_timeout": 30, "target_score": 200}},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(ChallengeCreateSerializer, request.data)
        raw = request.data.get("settings") if isinstance(request.data, dict) else None
        settings = challenges.taken(
            dict(data.get("settings", {})), set(raw) if isinstance(raw, dict) else set()
        )
        row = challenges.challenge_create(
            challenger=api.caller(request),
            to=data["to"],
            settings=settings,
            expires_in=data.get("expires_in"),
        )
        return Response(challenge_view(row), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="challenges_list",
        summary="The caller's open challenges, made and received",
        tags=TAGS,
        parameters=[ChallengeListQuerySerializer],
        responses={200: ChallengeListSerializer, **errors_for("invalid", "not_authenticated")},
    )
    def get(self, request: Request) -> Response:
        query = api.query(ChallengeListQuerySerializer, request)
        rows = challenges.challenges_of(api.caller(request), every=query["all"])
        return Response({"challenges": [challenge_view(row) for row in rows]})


class ChallengeAcceptApi(APIView):
    @extend_schema(
        operation_id="challenges_accept",
        summary="Accept a challenge: the game is made and started",
        tags=TAGS,
        request=None,
        responses={
            200: ChallengeSerializer,
            **errors_for(
                "not_authenticated",
                "permission_denied",
                "blocked",
                "not_found",
                "challenge_expired",
                "challenge_not_open",
                "too_many_waiting_games",
            ),
        },
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        row = challenges.challenge_accept(
            player=api.caller(request), challenge_id=str(challenge_id)
        )
        return Response(challenge_view(row))


_ANSWER_ERRORS = errors_for(
    "not_authenticated",
    "permission_denied",
    "not_found",
    "challenge_expired",
    "challenge_not_open",
)


class ChallengeDeclineApi(APIView):
    @extend_schema(
        operation_id="challenges_decline",
        summary="Decline a challenge (the player challenged)",
        tags=TAGS,
        request=None,
        responses={200: ChallengeSerializer, **_ANSWER_ERRORS},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        row = challenges.challenge_decline(
            player=api.caller(request), challenge_id=str(challenge_id)
        )
        return Response(challenge_view(row))


class ChallengeCancelApi(APIView):
    @extend_schema(
        operation_id="challenges_cancel",
        summary="Take a challenge back before it is answered (its challenger)",
        tags=TAGS,
        request=None,
        responses={200: ChallengeSerializer, **_ANSWER_ERRORS},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        row = challenges.challenge_cancel(
            player=api.caller(request), challenge_id=str(challenge_id)
        )
        return Response(challenge_view(row))
