"""The players HTTP API: registration, tokens, profiles. One thin APIView per operation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import limits
from games.engine.limits import GUEST_DAYS
from players.models import Rating
from players.ratings import rating_of, shown
from players.selectors import leaderboard, player_get, player_stats
from players.serializers import (
    AuthTokenSerializer,
    ClaimSerializer,
    CredentialsSerializer,
    GuestAccountSerializer,
    LeaderboardEntrySerializer,
    LeaderboardPageSerializer,
    LeaderboardQuery,
    OwnProfileSerializer,
    PublicProfileSerializer,
    RegisteredPlayerSerializer,
    RegistrationSerializer,
)
from players.services import (
    guest_claim,
    guest_create,
    is_guest,
    player_register,
    token_issue,
    token_revoke,
)
from unoservice import api
from unoservice.pages import page_response
from unoservice.schema import UNAUTHORIZED, error_response, errors_for

TAGS = ["players"]
EXAMPLE_STATS = {"games_played": 12, "games_won": 5, "games_active": 2}
EXAMPLE_JOINED = "2026-11-29T13:00:00Z"
EXAMPLE_RATING = {"mu": 27.1, "sigma": 7.2, "ordinal": 5.5}
EXAMPLE_RATED = {"rating": EXAMPLE_RATING, "games_played": 12, "games_won": 5}


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
        "guest": is_guest(player),
        **extra,
    }


class PlayerRegisterApi(APIView):
    authentication_classes: list[Any] = []  # a stale token must not stop a registration
    permission_classes = [AllowAny]
    throttle_scope = "registration"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="players_register",
        summary="Register a player",
        description="Open to anyone. The password must pass the server's password validators.",
        tags=TAGS,
        auth=[],
        request=RegistrationSerializer,
        responses={
            201: RegisteredPlayerSerializer,
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
        player = player_register(**api.validated(RegistrationSerializer, request.data))
        return Response(RegisteredPlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerGuestApi(APIView):
    authentication_classes: list[Any] = []  # a stale token must not stop a new guest
    permission_classes = [AllowAny]
    throttle_scope = "registration"  # per address, with registrations: a new account either way

    @extend_schema(
        operation_id="players_guest",
        summary="Play as a guest",
        description=(
            "Open to anyone, with no body: a guest account with a generated username and no "
            "password, and its token. A guest plays everything a player does, but the games it "
            f"sits in are not rated. Claim it (`POST /api/v1/players/me/claim/`) to keep it: an "
            f"unclaimed guest is removed after {GUEST_DAYS} days with its waiting games (its "
            "finished games stay)."
        ),
        tags=TAGS,
        auth=[],
        request=None,
        responses={201: GuestAccountSerializer, **errors_for("throttled")},
        examples=[
            OpenApiExample(
                "Guest",
                value={
                    "id": 9,
                    "username": "guest-k7p2m9xq",
                    "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
                    "guest": True,
                },
                response_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        user, token = guest_create()
        body = {"id": user.pk, "username": user.username, "token": token.key, "guest": True}
        return Response(GuestAccountSerializer(body).data, status=status.HTTP_201_CREATED)


class PlayerClaimApi(APIView):
    @extend_schema(
        operation_id="players_me_claim",
        summary="Claim a guest account",
        description=(
            "The guest chooses a username and a password (the registration's rules) and becomes "
            "a full account: its games, notifications and token stay; from now on its games are "
            "rated. Answers the caller's profile."
        ),
        tags=TAGS,
        request=ClaimSerializer,
        responses={
            200: OwnProfileSerializer,
            **errors_for("invalid", "not_authenticated", "not_a_guest", "username_taken"),
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
        return Response(OwnProfileSerializer(_profile(player, is_staff=player.is_staff)).data)


class TokenIssueApi(APIView):
    authentication_classes: list[Any] = []  # a revoked token must not stop getting a new one
    permission_classes = [AllowAny]
    throttle_scope = "token"  # rates: settings.UNO_THROTTLE_RATES

    @extend_schema(
        operation_id="auth_token",
        summary="Get an API token",
        description=(
            "Trade a username and password for the player's token. The same token comes back "
            "until it is revoked by logging out."
        ),
        tags=TAGS,
        auth=[],
        request=CredentialsSerializer,
        responses={
            200: AuthTokenSerializer,
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
        token = token_issue(**api.validated(CredentialsSerializer, request.data))
        return Response(AuthTokenSerializer(token).data)


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
        token_revoke(user=api.caller(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerMeApi(APIView):
    @extend_schema(
        operation_id="players_me",
        summary="The caller's profile",
        description="The caller's profile and game statistics.",
        tags=TAGS,
        responses={200: OwnProfileSerializer, **UNAUTHORIZED},
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
        player = api.caller(request)
        return Response(OwnProfileSerializer(_profile(player, is_staff=player.is_staff)).data)


class PlayerDetailApi(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        summary="A player's public profile",
        description="Any player's public profile and game statistics.",
        tags=TAGS,
        responses={
            200: PublicProfileSerializer,
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
        return Response(PublicProfileSerializer(_profile(player_get(player_id=player_id))).data)


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
        api.query(LeaderboardQuery, request)
        return page_response(
            request,
            self,
            leaderboard(),
            lambda rank, row: LeaderboardEntrySerializer(_entry(rank, row)).data,
            size=limits.LEADERBOARD_PAGE,
            default=limits.LEADERBOARD_PAGE_DEFAULT,
        )
