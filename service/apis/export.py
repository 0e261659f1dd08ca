"""A player's own data, in one document (``GET /api/v1/players/me/export/``).

What a person may ask of any service that keeps data about them (the right of access and of
portability): everything the service holds that is theirs, in a machine-readable file. Each part
is shaped as the API already shows it (the profile, the sessions, a game of the list, a chat
message, a challenge, a tournament of the list, a block, a report, a notification, a webhook):
one shape per thing, the ones the schema names. The file says only what the caller may see
anywhere else: a game's summary, never a hand (each game's own log and replay are at
``games/{id}/events/`` and ``games/{id}/replay/``); no webhook's secret, no Web Push key; of other
people, only the names the caller already sees beside theirs. Reports made about the caller stay
with staff. Read from the primary: a file asked for just after a change holds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar
from urllib.parse import quote

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model, Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.listing import listing
from games.models import Challenge, ChatMessage, Entrant
from games.selectors import game_summaries, seat_of
from games.serializers import (
    ChallengeSerializer,
    ChatMessageSerializer,
    GameSummarySerializer,
    TournamentSummarySerializer,
)
from notifications.models import Notification, PushSubscription
from notifications.selectors import notification_view, push_kinds, webhooks
from notifications.serializers import (
    NotificationSerializer,
    PushKindsSerializer,
    WebhookSerializer,
)
from players.apis import TAGS, own_profile, session_list
from players.models import ChatSilence, Vacation
from players.safety import blocks_of, reports_by
from players.serializers import (
    BlockSerializer,
    OwnProfileSerializer,
    ReportSerializer,
    SessionSerializer,
)
from service.apis.challenges import challenge_view
from service.apis.safety import block_body, report_body
from service.chat import body_of
from service.tournaments import tournament_summary
from unoservice import api
from unoservice.api import APIView
from unoservice.prepared import Listing
from unoservice.schema import errors_for

EXPORT_FORMAT = 1
# Rows read at a time from a list that may be long (games, notifications).
_PAGE = 500

Row = TypeVar("Row", bound=Model)


# --- the document's shape ----------------------------------------------------------------------


class ExportedAccountSerializer(serializers.Serializer[dict[str, Any]]):
    email = serializers.CharField(help_text="'' when none was given.")
    last_login = serializers.DateTimeField(allow_null=True, help_text="The latest sign-in.")


class ExportedGameSerializer(GameSummarySerializer):
    your_seat = serializers.IntegerField(help_text="The caller's seat in it.")


class ExportedChatMessageSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.UUIDField()
    message = ChatMessageSerializer(help_text="As the game's chat shows it.")


class ExportedTournamentEntrySerializer(serializers.Serializer[dict[str, Any]]):
    tournament = TournamentSummarySerializer()
    joined_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class ExportedVacationSerializer(serializers.Serializer[dict[str, Any]]):
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class ExportedChatSilenceSerializer(serializers.Serializer[dict[str, Any]]):
    until = serializers.DateTimeField()
    reason = serializers.CharField(help_text="Staff's reason, as the caller was told it.")
    created_at = serializers.DateTimeField()


class ExportedPushSubscriptionSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    endpoint = serializers.CharField(help_text="The browser's push service address.")
    created_at = serializers.DateTimeField()


@extend_schema_serializer(component_name="AccountExport")
class AccountExportSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.IntegerField(help_text=f"This document's version: {EXPORT_FORMAT}.")
    exported_at = serializers.DateTimeField()
    profile = OwnProfileSerializer()
    account = ExportedAccountSerializer()
    sessions = SessionSerializer(many=True, help_text="The open sessions, as listed.")
    games = ExportedGameSerializer(
        many=True,
        help_text="Every game the caller has a seat in, newest first (a game's summary; its log "
        "and replay are at `games/{id}/events/` and `games/{id}/replay/`).",
    )
    chat_messages = ExportedChatMessageSerializer(
        many=True, help_text="The caller's, oldest first."
    )
    challenges = ChallengeSerializer(many=True, help_text="Made and received, newest first.")
    tournaments = ExportedTournamentEntrySerializer(many=True, help_text="Entered, newest first.")
    blocks = BlockSerializer(many=True, help_text="The players the caller blocked.")
    reports = ReportSerializer(many=True, help_text="The reports the caller made.")
    vacations = ExportedVacationSerializer(many=True, help_text="Oldest first.")
    chat_silences = ExportedChatSilenceSerializer(many=True, help_text="Staff's, oldest first.")
    notifications = NotificationSerializer(many=True, help_text="The inbox, newest first.")
    webhooks = WebhookSerializer(many=True, help_text="Without their signing secrets.")
    push_subscriptions = ExportedPushSubscriptionSerializer(
        many=True, help_text="The browsers subscribed to Web Push, without their keys."
    )
    push_kinds = PushKindsSerializer(help_text="The kinds Web Push carries to them.")


# --- the document's parts ----------------------------------------------------------------------


def _pages(rows: Listing[Row]) -> Iterator[list[Row]]:
    start = 0
    while page := rows[start : start + _PAGE]:
        yield page
        start += len(page)


def _games(player: User) -> list[dict[str, Any]]:
    seated = listing(
        DEFAULT_DB_ALIAS, player_id=player.pk, staff=False, status=None, mine=True, my_turn=False
    )
    found: list[dict[str, Any]] = []
    for page in _pages(seated):
        for game, summary in zip(page, game_summaries(page), strict=True):
            found.append({**summary, "your_seat": seat_of(game, player)})
    return found


def _notifications(player: User) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(player=player).order_by("-id")
    return [notification_view(row) for row in rows.iterator(chunk_size=_PAGE)]


def _chat_messages(player: User) -> list[dict[str, Any]]:
    rows = ChatMessage.objects.filter(author=player).select_related("author").order_by("id")
    return [
        {"game": row.game_id, "message": body_of(row)} for row in rows.iterator(chunk_size=_PAGE)
    ]


def _challenges(player: User) -> list[dict[str, Any]]:
    rows = (
        Challenge.objects.filter(Q(challenger=player) | Q(challenged=player))
        .select_related("challenger", "challenged")
        .order_by("-created_at")
    )
    return [challenge_view(row) for row in rows]


def _tournaments(player: User) -> list[dict[str, Any]]:
    rows = (
        Entrant.objects.filter(player=player)
        .select_related("tournament__host")
        .order_by("-joined_at")
    )
    return [
        {
            "tournament": tournament_summary(row.tournament),
            "joined_at": row.joined_at,
            "withdrawn_at": row.withdrawn_at,
        }
        for row in rows
    ]


def _rows(rows: Any, *fields: str) -> list[dict[str, Any]]:
    return [{name: getattr(row, name) for name in fields} for row in rows]


def account_export(request: Request) -> dict[str, Any]:
    """The caller's document (``AccountExportSerializer``'s shape)."""
    player = api.caller(request)
    vacations = Vacation.objects.filter(player=player).order_by("starts_at")
    silences = ChatSilence.objects.filter(player=player).order_by("created_at")
    subscriptions = PushSubscription.objects.filter(player=player).order_by("id")
    body = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now(),
        "profile": own_profile(player),
        "account": {"email": player.email, "last_login": player.last_login},
        "sessions": session_list(request),
        "games": _games(player),
        "chat_messages": _chat_messages(player),
        "challenges": _challenges(player),
        "tournaments": _tournaments(player),
        "blocks": [block_body(row) for row in blocks_of(player)],
        "reports": [report_body(row) for row in reports_by(player)],
        "vacations": _rows(vacations, "starts_at", "ends_at"),
        "chat_silences": _rows(silences, "until", "reason", "created_at"),
        "notifications": _notifications(player),
        "webhooks": webhooks(player),
        "push_subscriptions": _rows(subscriptions, "id", "endpoint", "created_at"),
        "push_kinds": push_kinds(player),
    }
    return dict(AccountExportSerializer(body).data)


class PlayerExportApi(APIView):
    throttle_scope = "exports"

    @extend_schema(
        operation_id="players_me_export",
        summary="Everything the service holds of the caller, as one JSON file",
        description=(
            "The caller's data, to keep or to take elsewhere: the profile, the account's e-mail "
            "and last sign-in, the open sessions, every game with a seat of the caller (its "
            "summary and `your_seat`: never a hand; each game's log and replay are at "
            "`games/{id}/events/` and `games/{id}/replay/`), the caller's chat messages, "
            "challenges, tournaments, blocks, reports, vacations, chat silences, notifications, "
            "webhooks (no secret) and Web Push subscriptions (no key). Each part has the shape "
            "the API shows it in elsewhere. Sent as a download "
            "(`Content-Disposition: attachment`). Throttled per player (429 `throttled`)."
        ),
        tags=TAGS,
        responses={
            200: AccountExportSerializer,
            **errors_for("not_authenticated", "throttled"),
        },
    )
    def get(self, request: Request) -> Response:
        body = account_export(request)
        profile = body["profile"]
        # A username may hold any letter: the plain name is the id's, the UTF-8 one the name's.
        named = quote(f"uno-{profile['username']}.json", safe="")
        disposition = f"attachment; filename=\"uno-{profile['id']}.json\"; filename*=UTF-8''{named}"
        return Response(body, headers={"Content-Disposition": disposition})
