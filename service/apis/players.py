"""The players' writes that reach their games, over HTTP: a vacation re-clocks them
(``service.vacations``); deleting the account resigns them (``service.accounts``); claiming a
guest renames it in its tables and the other players' notifications (``service.guests``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from players.apis import TAGS, own_profile
from players.models import Vacation
from players.scopes import AccountChange
from players.serializers import (
    AccountDeleteSerializer,
    ClaimSerializer,
    OwnProfileSerializer,
    VacationSerializer,
    VacationStartSerializer,
)
from players.services import vacation_days_left
from service.accounts import account_delete
from service.guests import guest_claim
from service.vacations import vacation_end, vacation_start
from unoservice import api
from unoservice.api import APIView
from unoservice.schema import errors_for

VACATION_EXAMPLE = {
    "starts_at": "2026-12-01T09:00:00Z",
    "ends_at": "2026-12-08T09:00:00Z",
    "days_left": 7.0,
}


class PlayerVacationApi(APIView):
    @extend_schema(
        operation_id="players_vacation_start",
        summary="Start a vacation",
        description=(
            "From now for `days`: the caller's clocks stand still in every game with a bank "
            "clock or a move clock of an hour or more (a deadline moves past the vacation's end "
            "by the time that was left); live games go on. The seat shows `on_vacation_until`."
        ),
        tags=TAGS,
        request=VacationStartSerializer,
        responses={
            201: VacationSerializer,
            **errors_for(
                "invalid", "not_authenticated", "already_on_vacation", "vacation_days_used_up"
            ),
        },
        examples=[
            OpenApiExample("A week away", value={"days": 7}, request_only=True),
            OpenApiExample("Started", value=VACATION_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(VacationStartSerializer, request.data)
        player = api.caller(request)
        vacation = vacation_start(player=player, **data)
        return Response(_vacation(player, vacation), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="players_vacation_end",
        summary="End the vacation early",
        description=(
            "The time it had not used is the caller's again: deadlines it moved come back to now "
            "plus the time that was left."
        ),
        tags=TAGS,
        request=None,
        responses={200: VacationSerializer, **errors_for("not_authenticated", "not_on_vacation")},
        examples=[OpenApiExample("Ended", value=VACATION_EXAMPLE, response_only=True)],
    )
    def delete(self, request: Request) -> Response:
        player = api.caller(request)
        return Response(_vacation(player, vacation_end(player=player)))


def _vacation(player: User, vacation: Vacation) -> dict[str, Any]:
    body = {
        "starts_at": vacation.starts_at,
        "ends_at": vacation.ends_at,
        "days_left": vacation_days_left(player, timezone.now()),
    }
    return dict(VacationSerializer(body).data)


class PlayerDeleteApi(APIView):
    """Open to a bot account's token too: the password, not the token, makes the deletion
    (``players.scopes``)."""

    throttle_scope = "token"  # a guess at the password is a guess at a sign-in

    @extend_schema(
        operation_id="players_me_delete",
        summary="Delete the caller's account",
        description=(
            "For good, confirmed with the account's password (a guest, who has none, sends "
            "none). The caller's waiting games are left (the ones it made abandoned), its seat "
            "resigns every running game (a game left with one player ends), its open challenges "
            "are cancelled or declined, it withdraws from tournaments not over; its sessions and "
            "tokens, webhooks, Web Push subscriptions, notifications, vacations, blocks and chat "
            "messages are deleted. The games keep its seats under the name `deleted-…`; its "
            "profile answers 404 and it leaves the leaderboard. 204; every token of the account "
            "is refused afterwards. A wrong password is 400 `invalid_credentials` and changes "
            "nothing. A bot account is deleted the same way, with its password. Two deletions "
            "sent at once (a second tap, a second device) both answer 204."
        ),
        tags=TAGS,
        request=AccountDeleteSerializer,
        responses={
            204: None,
            **errors_for(
                "invalid",
                "invalid_credentials",
                "not_authenticated",
                "throttled",
            ),
        },
        examples=[
            OpenApiExample(
                "Delete", value={"password": "correct-horse-battery"}, request_only=True
            ),
            OpenApiExample("Deleted", value=None, response_only=True, status_codes=[204]),
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(AccountDeleteSerializer, request.data)
        account_delete(user=api.caller(request), **data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerClaimApi(AccountChange, APIView):
    """Here, not in the players app: the claim renames the guest in the other players'
    notifications too (``service.guests.guest_claim``), which that app may not import."""

    @extend_schema(
        operation_id="players_me_claim",
        summary="Claim a guest account",
        description=(
            "The guest chooses a username and a password (the registration's rules) and becomes "
            "a full account: its games, notifications and token stay; from now on its games are "
            "rated. Answers the caller's profile. Not with a bot account's token (403 "
            "`bot_account_scope`)."
        ),
        tags=TAGS,
        request=ClaimSerializer,
        responses={
            200: OwnProfileSerializer,
            **errors_for(
                "invalid",
                "username_reserved",
                "not_authenticated",
                "not_a_guest",
                "username_taken",
                "bot_account_scope",
            ),
        },
        examples=[
            OpenApiExample(
                "Claim",
                value={"username": "alice", "password": "correct-horse-battery"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = api.validated(ClaimSerializer, request.data)
        player = guest_claim(user=api.caller(request), **data)
        return Response(OwnProfileSerializer(own_profile(player)).data)
