"""Keeping away from someone over HTTP: blocks and reports (``players.safety``). A block keeps
the two apart both ways: no seat at one table (``blocked``), quick match seats them apart, and
neither sees the other's chat."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from players import safety
from players.apis import TAGS
from players.models import Block, Report
from players.serializers import (
    BlockListSerializer,
    BlockSerializer,
    ReportCreateSerializer,
    ReportListSerializer,
    ReportSerializer,
)
from service import challenges
from unoservice import api
from unoservice.api import APIView
from unoservice.schema import errors_for


def block_body(row: Block) -> dict[str, Any]:
    blocked = row.blocked
    return {
        "player": {"id": blocked.pk, "username": blocked.get_username()},
        "created_at": row.created_at,
    }


def report_body(row: Report) -> dict[str, Any]:
    reported = row.reported
    return {
        "id": row.pk,
        "player": {"id": reported.pk, "username": reported.get_username()},
        "reason": row.reason,
        "note": row.note,
        "game": row.game_id,
        "seq": row.seq,
        "created_at": row.created_at,
        "handled": row.handled,
    }


class PlayerBlockApi(APIView):
    @extend_schema(
        operation_id="players_block",
        summary="Block a player",
        description=(
            "The caller and the player keep apart, both ways: neither takes a seat at a table "
            "where the other sits (403 `blocked`), quick match seats them at different tables, "
            "and neither sees the other's chat. 201 when new, 200 when already blocked."
        ),
        tags=TAGS,
        request=None,
        responses={
            200: BlockSerializer,
            201: BlockSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
    )
    def post(self, request: Request, player_id: int) -> Response:
        with transaction.atomic():
            row, new = safety.block(api.caller(request), player_id)
            challenges.close_between(row.blocker, player_id)
        return Response(
            block_body(row), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK
        )

    @extend_schema(
        operation_id="players_unblock",
        summary="Unblock a player",
        description="The block ends (204 also when there was none; 404 for no such player).",
        tags=TAGS,
        request=None,
        responses={204: None, **errors_for("not_authenticated", "not_found")},
    )
    def delete(self, request: Request, player_id: int) -> Response:
        safety.unblock(api.caller(request), player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerBlockListApi(APIView):
    @extend_schema(
        operation_id="players_me_blocks",
        summary="The players the caller blocked",
        tags=TAGS,
        responses={200: BlockListSerializer, **errors_for("not_authenticated")},
    )
    def get(self, request: Request) -> Response:
        return Response(
            {"blocks": [block_body(row) for row in safety.blocks_of(api.caller(request))]}
        )


class ReportListApi(APIView):
    # Filing only (rates: settings.UNO_THROTTLE_RATES): every report lands in staff's queue, so
    # one account could bury the others' under as many as it liked.
    throttle_scope = "reports"
    throttle_methods = frozenset({"POST"})

    @extend_schema(
        operation_id="reports_create",
        summary="Report a player to staff",
        description=(
            "A reason from the list, an optional note, and the game (one the caller may see) "
            "and the seq it happened at. Staff see it in the admin with the game's chat around "
            "that seq and may silence the player's chat for a time; nobody else sees it but "
            "its author. Throttled per player (429 `throttled`)."
        ),
        tags=TAGS,
        request=ReportCreateSerializer,
        responses={
            201: ReportSerializer,
            **errors_for("invalid", "not_authenticated", "not_found", "seq_out_of_range"),
        },
        examples=[
            OpenApiExample(
                "Insults in a game's chat",
                value={"player": 42, "reason": "abuse", "game": "8b0e…", "seq": 17},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(ReportCreateSerializer, request.data)
        game = data.get("game")
        row = safety.report(
            api.caller(request),
            data["player"],
            data["reason"],
            data.get("note", ""),
            str(game) if game is not None else None,
            data.get("seq"),
        )
        return Response(report_body(row), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="reports_list",
        summary="The caller's own reports",
        tags=TAGS,
        responses={200: ReportListSerializer, **errors_for("not_authenticated")},
    )
    def get(self, request: Request) -> Response:
        rows = safety.reports_by(api.caller(request))
        return Response({"reports": [report_body(row) for row in rows]})
