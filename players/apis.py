"""The players HTTP API: registration, tokens, profiles. One thin APIView per operation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import limits
from games.engine.limits import VACATION_DAYS, VACATION_DAYS_PER_YEAR
from games.engine.shapes import BOT_LEVELS
from games.serializers import StrictIntegerField, StrictSerializer
from players.models import Rating, Vacation
from players.ratings import rating_of, shown
from players.selectors import leaderboard, player_get, player_stats
from players.serializers import (
    LeaderboardEntrySerializer,
    LeaderboardPageSerializer,
    LeaderboardQuery,
    PlayerStatsSerializer,
    RatingSerializer,
    password_field,
    username_field,
)
from players.services import (
    player_register,
    token_issue,
    token_revoke,
    vacation_days_left,
    vacation_end,
    vacation_start,
)
from unoservice.errors import DomainError
from unoservice.pages import page_response
from unoservice.schema import UNAUTHORIZED, error_response, errors_for

TAGS = ["players"]
EXAMPLE_STATS = {"games_played": 12, "games_won": 5, "games_active": 2}
EXAMPLE_JOINED = "2026-11-29T13:00:00Z"
EXAMPLE_RATING = {"mu": 27.1, "sigma": 7.2, "ordinal": 5.5}
EXAMPLE_RATED = {"rating": EXAMPLE_RATING, "games_played": 12, "games_won": 5}


def _caller(request: Request) -> User:
    """The authenticated player (the view's permission has already refused anyone else)."""
    user = request.user
    if not isinstance(user, User):  # pragma: no cover - IsAuthenticated runs first
        raise DomainError("not_authenticated", "Authentication credentials were not provided.")
    return user


def _rated(rating: Any) -> dict[str, Any]:
    """A rating (``players.ratings.Shown``) as the profile and the leaderboard show it."""
    return {
        "rating": {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal},
        "games_played": rating.games_played,
        "games_won": rating.games_won,
    }


def _profile(player: User, **extra: Any) -> dict[str, Any]:
    return {
        "id": player.pk,
        "username": player.username,
        "date_joined": player.date_joined,
        "stats": player_stats(player=player),
        **_rated(rating_of(player)),
        **({"bot": player.bot.level} if hasattr(player, "bot") else {}),
        **extra,
    }


class RatedFields(serializers.Serializer[dict[str, Any]]):
    """The rating part of a profile (and of a leaderboard entry)."""

    rating = RatingSerializer()
    games_played = serializers.IntegerField(help_text="Rated games: finished games sat in.")
    games_won = serializers.IntegerField(help_text="Rated games won.")


class PlayerRegisterApi(APIView):
    authentication_classes: list[Any] = []  # a stale token must not stop a registration
    permission_classes = [AllowAny]
    throttle_scope = "registration"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema_serializer(component_name="Registration")
    class InputSerializer(serializers.Serializer[dict[str, str]]):
        username = username_field(validate=True)
        password = password_field()

    @extend_schema_serializer(component_name="RegisteredPlayer")
    class OutputSerializer(serializers.Serializer[User]):
        id = serializers.IntegerField()
        username = serializers.CharField()

    @extend_schema(
        operation_id="players_register",
        summary="Register a player",
        description="Open to anyone. The password must pass the server's password validators.",
        tags=TAGS,
        auth=[],
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: error_response(
                "Malformed body, a username Django refuses, or a password the validators refuse.",
                "invalid",
            ),
            409: error_response("The username is taken (ignoring case).", "username_taken"),
        },
        examples=[
            OpenApiExample(
                "Register",
                value={"username": "alice", "password": "correct-horse-battery"},
                request_only=True,
            ),
            OpenApiExample("Registered", value={"id": 7, "username": "alice"}, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = player_register(**serializer.validated_data)
        return Response(self.OutputSerializer(player).data, status=status.HTTP_201_CREATED)


class TokenIssueApi(APIView):
    authentication_classes: list[Any] = []  # a revoked token must not stop getting a new one
    permission_classes = [AllowAny]
    throttle_scope = "token"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema_serializer(component_name="Credentials")
    class InputSerializer(serializers.Serializer[dict[str, str]]):
        username = username_field(validate=False)
        password = password_field()

    @extend_schema_serializer(component_name="AuthToken")
    class OutputSerializer(serializers.Serializer[Token]):
        token = serializers.CharField(
            source="key", help_text="Send it as `Authorization: Token <token>`."
        )

    @extend_schema(
        operation_id="auth_token",
        summary="Get an API token",
        description=(
            "Trade a username and password for the player's token. The same token comes back "
            "until it is revoked by logging out."
        ),
        tags=TAGS,
        auth=[],
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: error_response(
                "Malformed body, or a wrong username or password.",
                "invalid",
                "invalid_credentials",
            ),
        },
        examples=[
            OpenApiExample(
                "Log in",
                value={"username": "alice", "password": "correct-horse-battery"},
                request_only=True,
            ),
            OpenApiExample(
                "Token",
                value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = token_issue(**serializer.validated_data)
        return Response(self.OutputSerializer(token).data)


class TokenRevokeApi(APIView):
    @extend_schema(
        operation_id="auth_logout",
        summary="Log out",
        description="Delete the caller's token: it authenticates nothing afterwards.",
        tags=TAGS,
        request=None,
        responses={204: None, **UNAUTHORIZED},
        examples=[OpenApiExample("Logged out", value=None, response_only=True, status_codes=[204])],
    )
    def post(self, request: Request) -> Response:
        token_revoke(user=_caller(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerMeApi(APIView):
    @extend_schema_serializer(component_name="OwnProfile")
    class OutputSerializer(RatedFields):
        id = serializers.IntegerField()
        username = serializers.CharField()
        date_joined = serializers.DateTimeField()
        is_staff = serializers.BooleanField()
        stats = PlayerStatsSerializer()

    @extend_schema(
        operation_id="players_me",
        summary="The caller's profile",
        description="The caller's profile and game statistics.",
        tags=TAGS,
        responses={200: OutputSerializer, **UNAUTHORIZED},
        examples=[
            OpenApiExample(
                "Profile",
                value={
                    "id": 7,
                    "username": "alice",
                    "date_joined": EXAMPLE_JOINED,
                    "is_staff": False,
                    "stats": EXAMPLE_STATS,
                    **EXAMPLE_RATED,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        player = _caller(request)
        return Response(self.OutputSerializer(_profile(player, is_staff=player.is_staff)).data)


class PlayerDetailApi(APIView):
    @extend_schema_serializer(component_name="PublicProfile")
    class OutputSerializer(RatedFields):
        id = serializers.IntegerField()
        username = serializers.CharField()
        date_joined = serializers.DateTimeField()
        stats = PlayerStatsSerializer()
        bot = serializers.ChoiceField(
            choices=BOT_LEVELS, required=False, help_text="A bot's level (bots only)."
        )

    @extend_schema(
        operation_id="players_retrieve",
        summary="A player's public profile",
        description="Any player's public profile and game statistics.",
        tags=TAGS,
        responses={
            200: OutputSerializer,
            **UNAUTHORIZED,
            404: error_response("No such player.", "not_found"),
        },
        examples=[
            OpenApiExample(
                "Profile",
                value={
                    "id": 8,
                    "username": "bob",
                    "date_joined": EXAMPLE_JOINED,
                    "stats": EXAMPLE_STATS,
                    **EXAMPLE_RATED,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(self.OutputSerializer(_profile(player_get(player_id=player_id))).data)


def _entry(rank: int, row: Rating) -> dict[str, Any]:
    user = row.user
    return {
        "rank": rank,
        "player": {"id": user.pk, "username": user.username},
        **_rated(shown(row)),
        **({"bot": user.bot.level} if hasattr(user, "bot") else {}),
    }


class LeaderboardApi(APIView):
    @extend_schema(
        operation_id="leaderboard",
        summary="Players by rating",
        description=(
            "Every player with a finished game, by the ordinal of their OpenSkill rating "
            "(mu - 3 sigma), highest first; bots too, marked with their level."
        ),
        tags=TAGS,
        parameters=[LeaderboardQuery],
        responses={
            200: LeaderboardPageSerializer,
            **errors_for("invalid", "not_authenticated", "not_found"),
        },
        examples=[
            OpenApiExample(
                "The top",
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        {"rank": 1, "player": {"id": 8, "username": "bob"}, **EXAMPLE_RATED}
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        return page_response(
            request,
            self,
            leaderboard(),
            lambda rank, row: LeaderboardEntrySerializer(_entry(rank, row)).data,
            size=limits.LEADERBOARD_PAGE,
            default=limits.LEADERBOARD_PAGE_DEFAULT,
        )


VACATION_EXAMPLE = {
    "starts_at": "2026-12-01T09:00:00Z",
    "ends_at": "2026-12-08T09:00:00Z",
    "days_left": 7.0,
}


@extend_schema_serializer(component_name="Vacation")
class VacationSerializer(serializers.Serializer[dict[str, Any]]):
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="When the caller's clocks run again.")
    days_left = serializers.FloatField(
        help_text=f"Vacation days left in this calendar year (UTC), of {VACATION_DAYS_PER_YEAR}."
    )


class PlayerVacationApi(APIView):
    @extend_schema_serializer(component_name="VacationStart")
    class InputSerializer(StrictSerializer):
        days = StrictIntegerField(
            min_value=VACATION_DAYS.low,
            max_value=VACATION_DAYS.high,
            help_text=f"Days from now; a calendar year allows {VACATION_DAYS_PER_YEAR} in all.",
        )

    @extend_schema(
        operation_id="players_vacation_start",
        summary="Start a vacation",
        description=(
            "From now for `days`: the caller's clocks stand still in every game with a bank "
            "clock or a move clock of an hour or more (a deadline moves past the vacation's end "
            "by the time that was left); live games go on. The seat shows `on_vacation_until`."
        ),
        tags=TAGS,
        request=InputSerializer,
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
        if not isinstance(request.data, dict):
            raise DomainError("invalid", "The body must be a JSON object.")
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = _caller(request)
        vacation = vacation_start(player=player, **serializer.validated_data)
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
        player = _caller(request)
        return Response(_vacation(player, vacation_end(player=player)))


def _vacation(player: User, vacation: Vacation) -> dict[str, Any]:
    body = {
        "starts_at": vacation.starts_at,
        "ends_at": vacation.ends_at,
        "days_left": vacation_days_left(player, timezone.now()),
    }
    return dict(VacationSerializer(body).data)
